-- de_rows (sql/evaluate_disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS de_rows;

CREATE TABLE de_rows
USING PARQUET AS
SELECT
  'record' AS kind,
  r.cluster AS unit,
  r.chunk,
  r.`row`,
  l.item
FROM record_chunks AS r
JOIN de_label AS l
  ON l.label = r.item
UNION ALL
SELECT
  'shared',
  s.joint,
  s.chunk,
  s.`row`,
  l.item
FROM shared_chunks AS s
JOIN de_label AS l
  ON l.label = s.item;
