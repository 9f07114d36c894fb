-- de_places (sql/evaluate_disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS de_places;

CREATE TABLE de_places
USING PARQUET AS
WITH joint_size AS (
  SELECT
    j.joint,
    SUM(c.size) AS n
  FROM joint_clusters AS j
  JOIN clusters AS c
    ON c.cluster = j.cluster
  GROUP BY
    j.joint
), support AS (
  SELECT
    kind,
    unit,
    chunk,
    item,
    COUNT(*) AS rows
  FROM de_rows
  GROUP BY
    kind,
    unit,
    chunk,
    item
)
SELECT
  r.unit AS cluster,
  r.item,
  'record' AS kind,
  r.unit,
  r.chunk,
  c.size AS unit_size,
  r.rows
FROM support AS r
JOIN clusters AS c
  ON c.cluster = r.unit
WHERE
  r.kind = 'record'
UNION ALL
SELECT
  j.cluster,
  r.item,
  'shared',
  r.unit,
  r.chunk,
  z.n,
  r.rows
FROM support AS r
JOIN joint_clusters AS j
  ON j.joint = r.unit
JOIN joint_size AS z
  ON z.joint = r.unit
WHERE
  r.kind = 'shared'
UNION ALL
SELECT
  t.cluster,
  l.item,
  'term',
  t.cluster,
  NULL,
  c.size,
  NULL
FROM term_chunks AS t
JOIN de_label AS l
  ON l.label = t.item
JOIN clusters AS c
  ON c.cluster = t.cluster;
