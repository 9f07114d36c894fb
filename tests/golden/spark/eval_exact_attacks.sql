-- eval_exact_attacks (sql/evaluate_sample.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_exact_attacks;

CREATE TABLE eval_exact_attacks
USING PARQUET AS
SELECT
  workload,
  size,
  qid,
  actual,
  estimate,
  candidates
FROM eval_scores;
