-- eval_scores (sql/evaluate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_scores;

CREATE TABLE eval_scores
USING PARQUET AS
SELECT
  q.workload,
  q.size,
  q.qid,
  COALESCE(q.actual, a.actual, 0) AS actual,
  COALESCE(r.estimate, 0) AS estimate,
  COALESCE(r.candidates, 0) AS candidates
FROM eval_probes AS q
LEFT JOIN eval_actual_supports AS a
  USING (workload, size, qid)
LEFT JOIN eval_release_scores AS r
  USING (workload, size, qid);
