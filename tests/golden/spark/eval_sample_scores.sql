-- eval_sample_scores (sql/evaluate_sample.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_scores;

CREATE TABLE eval_scores
USING PARQUET AS
SELECT
  workload,
  size,
  qid,
  actual,
  estimate,
  candidates
FROM eval_replicate_scores
WHERE
  rep = -1
UNION ALL
SELECT
  workload,
  size,
  qid,
  actual,
  estimate,
  candidates
FROM eval_exact_attacks;
