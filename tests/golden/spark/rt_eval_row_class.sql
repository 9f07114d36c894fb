-- rt_eval_row_class (sql/rt_evaluate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_rt_row_class;

CREATE TABLE eval_rt_row_class
USING PARQUET AS
SELECT
  c.rid,
  DENSE_RANK() OVER (ORDER BY l.labels NULLS LAST) AS class
FROM cluster AS c
JOIN cluster_labels AS l
  ON l.cluster = c.cluster
ORDER BY
  c.rid NULLS LAST;
