-- reconstruct_terms (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS reconstructed;

CREATE TABLE reconstructed
USING PARQUET AS
WITH empty AS (
  SELECT
    cluster,
    slot,
    ROW_NUMBER() OVER (PARTITION BY cluster ORDER BY rnd NULLS LAST) AS r
  FROM (
    SELECT
      s.cluster,
      s.slot,
      RAND() AS rnd
    FROM reconstruct_slot AS s
    ANTI JOIN reconstructed_rows AS x
      ON x.cluster = s.cluster AND x.slot = s.slot
  )
), terms AS (
  SELECT
    cluster,
    item,
    size,
    ROW_NUMBER() OVER (PARTITION BY cluster ORDER BY rnd NULLS LAST) AS r
  FROM (
    SELECT
      t.cluster,
      t.item,
      c.size,
      RAND() AS rnd
    FROM term_chunks AS t
    JOIN clusters AS c
      ON c.cluster = t.cluster
  )
), placed AS (
  SELECT
    t.cluster,
    COALESCE(e.slot, 1 + CAST(FLOOR(RAND() * t.size) AS BIGINT)) AS slot,
    t.item
  FROM terms AS t
  LEFT JOIN empty AS e
    ON e.cluster = t.cluster AND e.r = t.r
), everything AS (
  SELECT
    cluster,
    slot,
    item
  FROM reconstructed_rows
  UNION ALL
  SELECT
    cluster,
    slot,
    item
  FROM placed
)
SELECT
  DENSE_RANK() OVER (ORDER BY cluster NULLS LAST, slot NULLS LAST) - 1 AS tid,
  item
FROM (
  SELECT DISTINCT
    cluster,
    slot,
    item
  FROM everything
);
