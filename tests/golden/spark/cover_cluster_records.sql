-- cover_cluster_records (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
SELECT
  m.cluster,
  m.tid,
  t.item,
  c.chunk
FROM cluster_members AS m
JOIN dis_tx AS t
  ON t.tid = m.tid
LEFT JOIN dis_chunk AS c
  ON c.cluster = m.cluster AND c.item = t.item
ANTI JOIN dis_suppressed AS x
  ON x.tid = t.tid AND x.item = t.item
WHERE
  ARRAY_CONTAINS(CAST($clusters AS ARRAY<INT>), m.cluster)
ORDER BY
  m.cluster NULLS LAST,
  m.tid NULLS LAST,
  t.item NULLS LAST;
