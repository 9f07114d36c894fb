-- horpart_cut (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS horpart_cut;

CREATE TABLE horpart_cut
USING PARQUET AS
WITH cut AS (
  SELECT
    part
  FROM horpart_children
  WHERE
    rank IS NULL
), records AS (
  SELECT
    a.tid,
    a.part,
    COLLECT_LIST(t.item) AS items
  FROM horpart_active AS a
  SEMI JOIN cut AS c
    ON c.part = a.part
  JOIN dis_tx AS t
    ON t.tid = a.tid
  GROUP BY
    a.tid,
    a.part
), ordered AS (
  SELECT
    tid,
    part,
    ROW_NUMBER() OVER (PARTITION BY part ORDER BY items NULLS LAST, tid NULLS LAST) - 1 AS pos,
    COUNT(*) OVER (PARTITION BY part) AS size
  FROM records
)
SELECT
  tid,
  part,
  CAST((
    (
      pos * LEAST(CAST(CEIL(size / $max) AS BIGINT), size DIV $k)
    ) DIV size
  ) AS INT) AS piece
FROM ordered;
