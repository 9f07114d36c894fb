-- eval_attacks (sql/evaluate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_attacks;

CREATE TABLE eval_attacks
USING PARQUET AS
SELECT
  q.size AS known,
  q.qid AS attack,
  q.tid AS target,
  q.itemset AS known_items,
  s.candidates
FROM eval_probes AS q
JOIN eval_scores AS s
  USING (workload, size, qid)
WHERE
  q.workload = 'attack'
ORDER BY
  known NULLS LAST,
  attack NULLS LAST;
