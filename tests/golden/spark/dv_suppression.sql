-- dv_suppression (sql/verify_disassociation.sql) as Spark SQL; $name parameters left unbound
INSERT INTO dv_violations
SELECT
  'suppressed item not in its record',
  NULL,
  x.item
FROM suppressed_items AS x
ANTI JOIN tx_raw AS r
  ON r.tid = x.tid AND r.label = x.item
UNION ALL
SELECT
  'record emptied by suppression',
  m.cluster,
  CAST(m.tid AS STRING)
FROM cluster_members AS m
ANTI JOIN dv_records AS r
  ON r.tid = m.tid;
