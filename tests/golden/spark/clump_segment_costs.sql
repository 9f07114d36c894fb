-- clump_segment_costs (sql/clump.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS clump_segment;

CREATE TABLE clump_segment
USING PARQUET AS
WITH layer AS (
  SELECT
    o.pos,
    tc.node,
    h.layer,
    tc.w
  FROM clump_order AS o
  JOIN tx_count AS tc
    ON tc.tid = o.tid, EXPLODE(IF((
    tc.cnt + 1 - 1
  ) < 1, ARRAY(), SEQUENCE(1, (
    tc.cnt + 1 - 1
  ))), _u(h))
  WHERE
    tc.w > 0
), island AS (
  SELECT
    pos,
    node,
    layer,
    w,
    pos - ROW_NUMBER() OVER (PARTITION BY node, layer ORDER BY pos NULLS LAST) AS island
  FROM layer
), reach AS (
  /* how many consecutive positions from pos on hold this layer (at most 2k - 1 matter) */
  SELECT
    pos,
    w,
    LEAST(MAX(pos) OVER (PARTITION BY node, layer, island) - pos + 1, 2 * $k - 1) AS reach
  FROM island
), gain_by_reach AS (
  SELECT
    pos,
    reach,
    SUM(w) AS w
  FROM reach
  WHERE
    reach >= $k
  GROUP BY
    pos,
    reach
), gain AS (
  SELECT
    g.pos,
    s.size,
    SUM(g.w) AS gain
  FROM gain_by_reach AS g
  JOIN EXPLODE(IF($k > (
    2 * $k - 1
  ), ARRAY(), SEQUENCE($k, (
    2 * $k - 1
  ))), _u(s))
    ON g.reach >= s.size
  GROUP BY
    g.pos,
    s.size
), items_before AS (
  SELECT
    pos,
    SUM(len) OVER (ORDER BY pos NULLS LAST) - len AS before,
    SUM(len) OVER (ORDER BY pos NULLS LAST) AS upto
  FROM clump_order
)
SELECT
  CAST(o.pos * $k + s.size - $k AS BIGINT) AS slot,
  o.pos,
  CAST(s.size AS INT) AS size,
  CAST((
    last.upto - o.before
  ) * $scale - s.size * COALESCE(g.gain, 0) AS BIGINT) AS cost
FROM items_before AS o
JOIN EXPLODE(IF($k > (
  2 * $k - 1
), ARRAY(), SEQUENCE($k, (
  2 * $k - 1
))), _u(s))
  ON o.pos + s.size <= (
    SELECT
      COUNT(*)
    FROM clump_order
  )
JOIN items_before AS last
  ON last.pos = o.pos + s.size - 1
LEFT JOIN gain AS g
  ON g.pos = o.pos AND g.size = s.size
ORDER BY
  slot NULLS LAST;
