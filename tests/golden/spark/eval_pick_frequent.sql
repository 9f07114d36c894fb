-- eval_pick_frequent (sql/evaluate.sql) as Spark SQL; $name parameters left unbound
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
    'frequent' AS workload,
    size,
    ROW_NUMBER() OVER (PARTITION BY size ORDER BY HASH(itemset, $seed) NULLS LAST, itemset NULLS LAST) AS qid,
    CAST(NULL AS BIGINT) AS tid,
    itemset,
    support AS actual
  FROM eval_frequent
  WHERE
    ARRAY_CONTAINS(CAST($sizes AS ARRAY<INT>), size)
) AS _t
WHERE
  qid <= $n;
