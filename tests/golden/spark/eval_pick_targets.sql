-- eval_pick_targets (sql/evaluate.sql) as Spark SQL; $name parameters left unbound
INSERT INTO eval_probes
SELECT
  workload,
  size,
  qid,
  tid,
  itemset,
  actual
FROM (
  SELECT
    'attack' AS workload,
    size,
    ROW_NUMBER() OVER (PARTITION BY size ORDER BY draw NULLS LAST, tid NULLS LAST) AS qid,
    tid,
    itemset,
    CAST(NULL AS BIGINT) AS actual
  FROM eval_subsets
) AS _t
WHERE
  qid <= $n;
