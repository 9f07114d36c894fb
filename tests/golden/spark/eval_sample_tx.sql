-- eval_sample_tx (sql/evaluate_sample.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_sample_tx;

CREATE TABLE eval_sample_tx
USING PARQUET AS
SELECT
  t.*,
  s.grp
FROM tx AS t
JOIN eval_sample_tids AS s
  ON s.tid = t.tid;
