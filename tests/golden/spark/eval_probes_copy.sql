-- eval_probes_copy (sql/evaluate_sample.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_probes_all;

CREATE TABLE eval_probes_all
USING PARQUET AS
SELECT
  *
FROM eval_probes;
