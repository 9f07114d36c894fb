-- horpart_first (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS horpart_first;

CREATE TABLE horpart_first
USING PARQUET AS
WITH occurrence AS (
  SELECT
    a.part,
    a.tid,
    t.item
  FROM horpart_active AS a
  JOIN dis_tx AS t
    ON t.tid = a.tid
), sizes AS (
  SELECT
    part,
    COUNT(*) AS size
  FROM horpart_active
  GROUP BY
    part
), support AS (
  SELECT
    part,
    item,
    COUNT(*) AS support
  FROM occurrence
  GROUP BY
    part,
    item
), terms AS (
  SELECT
    s.part,
    s.item,
    CAST(ROW_NUMBER() OVER (PARTITION BY s.part ORDER BY s.support DESC, s.item NULLS LAST) AS INT) AS rank
  FROM support AS s
  JOIN sizes AS z
    ON z.part = s.part
  WHERE
    s.support >= $k AND s.support <= z.size - $k
), first AS (
  SELECT
    o.tid,
    MIN(h.rank) AS rank
  FROM occurrence AS o
  JOIN terms AS h
    ON h.part = o.part AND h.item = o.item
  GROUP BY
    o.tid
)
SELECT
  a.tid,
  a.part,
  f.rank
FROM horpart_active AS a
LEFT JOIN first AS f
  ON f.tid = a.tid;
