-- eval_shadow_probes (sql/evaluate_sample.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_probes;

CREATE TABLE eval_probes
USING PARQUET AS
SELECT
  *
FROM eval_probes_all
WHERE
  ARRAY_CONTAINS(CAST($workloads AS ARRAY<STRING>), workload);
