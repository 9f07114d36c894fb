-- dv_domains (sql/verify_disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS dv_places;

CREATE TABLE dv_places
USING PARQUET AS
SELECT DISTINCT
  unit AS cluster,
  'record' AS kind,
  chunk,
  item
FROM dv_rows
WHERE
  kind = 'record'
UNION ALL
SELECT
  t.cluster,
  'term',
  NULL,
  l.id
FROM term_chunks AS t
LEFT JOIN dv_label AS l
  ON l.label = t.item
UNION ALL
SELECT DISTINCT
  j.cluster,
  'shared',
  s.chunk,
  s.item
FROM dv_rows AS s
JOIN joint_clusters AS j
  ON j.joint = s.unit
SEMI JOIN dv_records AS r
  ON r.cluster = j.cluster AND r.item = s.item
WHERE
  s.kind = 'shared';
