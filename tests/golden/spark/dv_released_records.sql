-- dv_released_records (sql/verify_disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS dv_records;

CREATE TABLE dv_records
USING PARQUET AS
SELECT
  m.cluster,
  m.tid,
  l.id AS item
FROM cluster_members AS m
JOIN tx_raw AS r
  ON r.tid = m.tid
JOIN dv_label AS l
  ON l.label = r.label
ANTI JOIN suppressed_items AS x
  ON x.tid = r.tid AND x.item = r.label;
