-- eval_queries (sql/evaluate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_queries;

CREATE TABLE eval_queries
USING PARQUET AS
SELECT
  q.workload,
  q.size,
  q.qid,
  q.itemset,
  s.actual,
  s.estimate,
  ABS(s.actual - s.estimate) / s.actual AS re
FROM eval_probes AS q
JOIN eval_scores AS s
  USING (workload, size, qid)
WHERE
  q.workload <> 'attack'
ORDER BY
  q.workload NULLS LAST,
  q.size NULLS LAST,
  q.qid NULLS LAST;
