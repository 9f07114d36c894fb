-- de_eval_scores (sql/evaluate_disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_scores;

CREATE TABLE eval_scores
USING PARQUET AS
WITH estimates AS (
  SELECT DISTINCT
    q.workload,
    q.size,
    q.probe AS qid,
    a.estimate
  FROM queries AS q
  JOIN est_answers AS a
    ON a.qid = q.qid
), per_cluster AS (
  SELECT
    workload,
    size,
    qid,
    COALESCE(SUM(GREATEST(candidates, 0)) FILTER(WHERE
      p > 0 OR q = 0 OR n_terms > 0), 0) AS candidates
  FROM de_cluster_scores
  GROUP BY
    workload,
    size,
    qid
), per_joint AS (
  SELECT
    workload,
    size,
    qid,
    SUM(candidates) AS candidates
  FROM (
    SELECT
      workload,
      size,
      qid,
      joint,
      MAX(GREATEST(candidates, 0)) AS candidates
    FROM de_cluster_scores
    WHERE
      p = 0 AND q > 0 AND n_terms = 0
    GROUP BY
      workload,
      size,
      qid,
      joint
  )
  GROUP BY
    workload,
    size,
    qid
)
SELECT
  q.workload,
  q.size,
  q.qid,
  COALESCE(q.actual, a.actual, 0) AS actual,
  COALESCE(e.estimate, 0) AS estimate,
  COALESCE(c.candidates, 0) + COALESCE(j.candidates, 0) AS candidates
FROM eval_probes AS q
LEFT JOIN eval_actual_supports AS a
  USING (workload, size, qid)
LEFT JOIN estimates AS e
  USING (workload, size, qid)
LEFT JOIN per_cluster AS c
  USING (workload, size, qid)
LEFT JOIN per_joint AS j
  USING (workload, size, qid);
