-- eval_group_scores_create (sql/evaluate_sample.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_group_scores;

CREATE TABLE eval_group_scores (
  grp INT,
  workload STRING,
  size INT,
  qid BIGINT,
  actual DOUBLE,
  estimate DOUBLE,
  candidates DOUBLE
)
USING PARQUET;
