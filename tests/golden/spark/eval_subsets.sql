-- eval_subsets (sql/evaluate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_subsets;

CREATE TABLE eval_subsets
USING PARQUET AS
WITH sizes AS (
  SELECT
    EXPLODE(CAST($sizes AS ARRAY<INT>)) AS size
), eligible AS NOT MATERIALIZED (
  SELECT
    s.size,
    l.tid,
    HASH(l.tid, s.size, $seed, $salt) AS draw
  FROM sizes AS s
  JOIN eval_lengths AS l
    ON l.items >= s.size
), drawn AS (
  SELECT
    f.size,
    u.pick.tid AS tid,
    u.pick.draw AS draw
  FROM (
    SELECT
      size,
      MIN_BY(STRUCT(tid AS tid, draw AS draw), STRUCT(draw AS draw, tid AS tid)) AS picks
    FROM eligible
    WHERE
      $limit <= $top_cap
    GROUP BY
      size
  ) AS f
  LATERAL VIEW
  EXPLODE(f.picks) u AS pick
  UNION ALL
  SELECT
    size,
    tid,
    draw
  FROM (
    SELECT
      size,
      tid,
      draw,
      ROW_NUMBER() OVER (PARTITION BY size ORDER BY draw NULLS LAST, tid NULLS LAST) AS _w
    FROM eligible
    WHERE
      $limit > $top_cap
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
