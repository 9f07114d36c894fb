-- eval_exact_actuals (sql/evaluate_sample.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_exact_actuals;

CREATE TABLE eval_exact_actuals
USING PARQUET AS
SELECT
  workload,
  size,
  qid,
  actual
FROM eval_actual_supports;
