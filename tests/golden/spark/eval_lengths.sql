-- eval_lengths (sql/evaluate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_lengths;

CREATE TABLE eval_lengths
USING PARQUET AS
SELECT
  tid,
  COUNT(*) AS items
FROM tx
GROUP BY
  tid;
