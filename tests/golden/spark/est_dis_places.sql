-- est_dis_places (sql/estimate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS est_dis_places;

CREATE TABLE est_dis_places
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
), chunk_items AS (
  SELECT DISTINCT
    kind,
    unit,
    chunk,
    item
  FROM est_dis_rows
)
SELECT
  r.unit AS cluster,
  r.item,
  r.kind,
  r.unit,
  r.chunk,
  c.size AS unit_size
FROM chunk_items AS r
JOIN clusters AS c
  ON c.cluster = r.unit
WHERE
  r.kind = 'record'
UNION ALL
SELECT
  j.cluster,
  r.item,
  r.kind,
  r.unit,
  r.chunk,
  z.n
FROM chunk_items AS r
JOIN joint_clusters AS j
  ON j.joint = r.unit
JOIN joint_size AS z
  ON z.joint = r.unit
WHERE
  r.kind = 'shared'
UNION ALL
SELECT DISTINCT
  t.cluster,
  t.item,
  'term',
  t.cluster,
  NULL,
  c.size
FROM term_chunks AS t
JOIN clusters AS c
  ON c.cluster = t.cluster;
