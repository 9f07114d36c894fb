-- eval_release_scores (sql/evaluate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_release_scores;

CREATE TABLE eval_release_scores
USING PARQUET AS
SELECT
  v.workload,
  v.size,
  v.qid,
  SUM(t.estimate) AS estimate,
  SUM(t.candidates) AS candidates
FROM eval_covers AS v
JOIN eval_node_tuples AS t
  ON t.nodes = v.nodes
GROUP BY
  v.workload,
  v.size,
  v.qid;
