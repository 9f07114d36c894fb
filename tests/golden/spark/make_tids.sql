-- make_tids (sql/encode.sql, its :spark variant) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS tid_order;

CREATE TABLE tid_order
USING PARQUET AS
SELECT
  tid_label,
  MONOTONICALLY_INCREASING_ID() AS mono
FROM (
  SELECT DISTINCT
    tid_label
  FROM source_distinct
  ORDER BY
    TRY_CAST(tid_label AS DOUBLE) NULLS LAST,
    CAST(tid_label AS STRING) NULLS LAST
);

DROP TABLE IF EXISTS tids;

CREATE TABLE tids
USING PARQUET AS
WITH part AS (
  SELECT
    SHIFTRIGHT(mono, 33) AS part,
    COUNT(*) AS n
  FROM tid_order
  GROUP BY
    SHIFTRIGHT(mono, 33)
), part_start AS (
  SELECT
    part,
    SUM(n) OVER (ORDER BY part NULLS LAST) - n AS start
  FROM part
)
SELECT
  CAST(s.start + (
    o.mono & 8589934591
  ) AS BIGINT) AS tid,
  o.tid_label AS label
FROM tid_order AS o
JOIN part_start AS s
  ON s.part = SHIFTRIGHT(o.mono, 33);

DROP TABLE tid_order;
