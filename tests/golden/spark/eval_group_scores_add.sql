-- eval_group_scores_add (sql/evaluate_sample.sql) as Spark SQL; $name parameters left unbound
INSERT INTO eval_group_scores
SELECT
  $grp,
  workload,
  size,
  qid,
  CASE WHEN workload = 'random' THEN 0 ELSE actual END,
  estimate,
  candidates
FROM eval_scores;
