-- eval_sample_release (sql/evaluate_sample.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_sample_release;

CREATE TABLE eval_sample_release
USING PARQUET AS
SELECT
  r.*,
  s.grp
FROM release AS r
JOIN eval_sample_tids AS s
  ON s.tid = r.tid;
