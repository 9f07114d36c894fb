-- horpart_next (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS horpart_next;

CREATE TABLE horpart_next
USING PARQUET AS
WITH placed AS (
  SELECT
    f.tid,
    f.part,
    COALESCE(c.rank, 2147483647) AS key,
    FALSE AS cut
  FROM horpart_first AS f
  LEFT JOIN horpart_children AS c
    ON c.part = f.part AND c.rank = f.rank
  ANTI JOIN horpart_cut AS x
    ON x.tid = f.tid
  UNION ALL
  SELECT
    tid,
    part,
    piece AS key,
    TRUE AS cut
  FROM horpart_cut
), children AS (
  SELECT
    part,
    key,
    ANY_VALUE(cut) IGNORE NULLS AS cut,
    COUNT(*) AS size,
    CAST((
      $next + ROW_NUMBER() OVER (ORDER BY part NULLS LAST, key NULLS LAST) - 1
    ) AS INT) AS new_part
  FROM placed
  GROUP BY
    part,
    key
)
SELECT
  p.tid,
  c.new_part AS part,
  ARRAY_APPEND(COALESCE(h.path, ARRAY()), CAST(c.key AS INT)) AS path,
  c.size,
  c.cut OR c.size < $max AS final
FROM placed AS p
JOIN children AS c
  ON c.part = p.part AND c.key = p.key
JOIN horpart_part AS h
  ON h.part = p.part;
