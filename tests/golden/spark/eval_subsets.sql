-- eval_subsets (sql/evaluate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_subsets;

CREATE TABLE eval_subsets
USING PARQUET AS
WITH sizes AS (
  SELECT
    EXPLODE(CAST($sizes AS ARRAY<INT>)) AS size
), lengths AS (
  SELECT
    tid,
    COUNT(*) AS items
  FROM tx
  GROUP BY
    tid
), drawn AS (
  SELECT
    size,
    tid,
    draw
  FROM (
    SELECT
      s.size,
      l.tid,
      HASH(l.tid, s.size, $seed, $salt) AS draw,
      ROW_NUMBER() OVER (
        PARTITION BY s.size
        ORDER BY HASH(l.tid, s.size, $seed, $salt) NULLS LAST, l.tid NULLS LAST
      ) AS _w
    FROM sizes AS s
    JOIN lengths AS l
      ON l.items >= s.size
  ) AS _t
  WHERE
    _w <= $limit
), ranked AS (
  SELECT
    d.size,
    d.tid,
    d.draw,
    t.item,
    ROW_NUMBER() OVER (
      PARTITION BY d.size, d.tid
      ORDER BY HASH(t.tid, t.item, d.size, $seed, $salt) NULLS LAST, t.item NULLS LAST
    ) AS pos
  FROM drawn AS d
  JOIN tx AS t
    ON t.tid = d.tid
)
SELECT
  size,
  tid,
  COLLECT_LIST(item) AS itemset,
  ANY_VALUE(draw) IGNORE NULLS AS draw
FROM ranked
WHERE
  pos <= size
GROUP BY
  size,
  tid;
