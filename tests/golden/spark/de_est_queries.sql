-- de_est_queries (sql/evaluate_disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS queries;

CREATE TABLE queries
USING PARQUET AS
WITH numbered AS (
  SELECT
    ROW_NUMBER() OVER (ORDER BY workload NULLS LAST, size NULLS LAST, qid NULLS LAST) - 1 AS est_qid,
    workload,
    size,
    qid AS probe,
    itemset
  FROM eval_probes
)
SELECT
  n.est_qid AS qid,
  n.workload,
  n.size,
  n.probe,
  l.label AS item
FROM (
  SELECT
    *,
    EXPLODE(itemset) AS item_id
  FROM numbered
) AS n
JOIN de_label AS l
  ON l.item = n.item_id;
