-- eval_pick_random (sql/evaluate.sql) as Spark SQL; $name parameters left unbound
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
    'random' AS workload,
    size,
    ROW_NUMBER() OVER (PARTITION BY size ORDER BY draw NULLS LAST, itemset NULLS LAST) AS qid,
    tid,
    itemset,
    CAST(NULL AS BIGINT) AS actual
  FROM (
    SELECT
      size,
      itemset,
      MIN(draw) AS draw,
      MIN_BY(tid, (draw, tid)) AS tid
    FROM eval_subsets
    GROUP BY
      size,
      itemset
  )
) AS _t
WHERE
  qid <= $n;
