-- dv_members (sql/verify_disassociation.sql) as Spark SQL; $name parameters left unbound
INSERT INTO dv_violations
SELECT
  'transaction not in exactly one cluster',
  NULL,
  CAST(t.tid AS STRING)
FROM tids AS t
LEFT JOIN cluster_members AS m
  ON m.tid = t.tid
GROUP BY
  t.tid
HAVING
  COUNT(m.cluster) <> 1
UNION ALL
SELECT
  'cluster member not in the data',
  m.cluster,
  CAST(m.tid AS STRING)
FROM cluster_members AS m
ANTI JOIN tids AS t
  ON t.tid = m.tid;
