-- dv_record_places (sql/verify_disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS dv_record_places;

CREATE TABLE dv_record_places
USING PARQUET AS
SELECT
  r.cluster,
  r.tid,
  r.item,
  p.kind,
  p.chunk
FROM dv_records AS r
LEFT JOIN dv_places AS p
  ON p.cluster = r.cluster AND p.item = r.item;
