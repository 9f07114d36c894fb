-- reconstruct_rows (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS reconstructed_rows;

CREATE TABLE reconstructed_rows
USING PARQUET AS
WITH rows AS (
  SELECT DISTINCT
    'record' AS kind,
    cluster AS unit,
    chunk,
    `row`
  FROM record_chunks
  UNION ALL
  SELECT DISTINCT
    'shared',
    joint,
    chunk,
    `row`
  FROM shared_chunks
), slots AS (
  SELECT
    'record' AS kind,
    cluster AS unit,
    cluster,
    slot
  FROM reconstruct_slot
  UNION ALL
  SELECT
    'shared',
    j.joint,
    s.cluster,
    s.slot
  FROM joint_clusters AS j
  JOIN reconstruct_slot AS s
    ON s.cluster = j.cluster
), ranked_rows AS (
  SELECT
    kind,
    unit,
    chunk,
    `row`,
    ROW_NUMBER() OVER (PARTITION BY kind, unit, chunk ORDER BY rnd NULLS LAST) AS r
  FROM (
    SELECT
      *,
      RAND() AS rnd
    FROM rows
  )
), ranked_slots AS (
  SELECT
    kind,
    unit,
    chunk,
    cluster,
    slot,
    ROW_NUMBER() OVER (PARTITION BY kind, unit, chunk ORDER BY rnd NULLS LAST) AS r
  FROM (
    SELECT
      c.kind,
      c.unit,
      c.chunk,
      s.cluster,
      s.slot,
      RAND() AS rnd
    FROM (
      SELECT DISTINCT
        kind,
        unit,
        chunk
      FROM rows
    ) AS c
    JOIN slots AS s
      ON s.kind = c.kind AND s.unit = c.unit
  )
), placed AS (
  SELECT
    r.kind,
    r.unit,
    r.chunk,
    r.`row`,
    s.cluster,
    s.slot
  FROM ranked_rows AS r
  JOIN ranked_slots AS s
    USING (kind, unit, chunk, r)
)
SELECT
  p.cluster,
  p.slot,
  i.item
FROM placed AS p
JOIN record_chunks AS i
  ON p.kind = 'record'
  AND i.cluster = p.unit
  AND i.chunk = p.chunk
  AND i.`row` = p.`row`
UNION ALL
SELECT
  p.cluster,
  p.slot,
  i.item
FROM placed AS p
JOIN shared_chunks AS i
  ON p.kind = 'shared' AND i.joint = p.unit AND i.chunk = p.chunk AND i.`row` = p.`row`;
