-- dv_released_rows (sql/verify_disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS dv_rows;

CREATE TABLE dv_rows
USING PARQUET AS
SELECT
  'record' AS kind,
  r.cluster AS unit,
  r.chunk,
  r.`row`,
  r.item AS label,
  l.id AS item
FROM record_chunks AS r
LEFT JOIN dv_label AS l
  ON l.label = r.item
UNION ALL
SELECT
  'shared',
  s.joint,
  s.chunk,
  s.`row`,
  s.item,
  l.id
FROM shared_chunks AS s
LEFT JOIN dv_label AS l
  ON l.label = s.item;
