-- rel_next_frontier (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS next_frontier;

CREATE TABLE next_frontier
USING PARQUET AS
WITH keeps AS (
  SELECT
    rec,
    MIN(STRUCT(attr AS attr, child AS child)) AS first
  FROM narrowing
  WHERE
    same
  GROUP BY
    rec
), chosen AS (
  SELECT
    n.rec AS parent,
    n.attr,
    n.child,
    n.support,
    TRANSFORM(f.node, (x, j) -> CASE WHEN j = n.attr THEN n.child ELSE x END) AS node,
    TRANSFORM(f.depth, (x, j) -> CASE WHEN j = n.attr THEN x + 1 ELSE x END) AS depth,
    f.cost + (
      c.cost - p.cost
    ) / LENGTH(f.node) AS cost
  FROM narrowing AS n
  JOIN frontier AS f
    ON f.rec = n.rec
  JOIN rel_node AS p
    ON p.attr = n.attr AND p.id = f.node[n.attr]
  JOIN rel_node AS c
    ON c.attr = n.attr AND c.id = n.child
  LEFT JOIN keeps AS s
    ON s.rec = n.rec
  WHERE
    s.rec IS NULL OR (
      n.attr = s.first.attr AND n.child = s.first.child
    )
), first_reach AS (
  SELECT
    MIN(
      STRUCT(
        parent AS parent,
        attr AS attr,
        child AS child,
        depth AS depth,
        support AS support,
        node AS node,
        cost AS cost
      )
    ) AS r
  FROM chosen
  GROUP BY
    node
), kept AS (
  SELECT
    r
  FROM (
    SELECT
      r,
      ROW_NUMBER() OVER (
        ORDER BY r.cost / LEAST(r.support, 2 * $k - 1) NULLS LAST, r.parent NULLS LAST, r.attr NULLS LAST, r.child NULLS LAST
      ) AS _w
    FROM first_reach
  ) AS _t
  WHERE
    $beam IS NULL OR _w <= $beam
)
SELECT
  $offset + ROW_NUMBER() OVER (ORDER BY r.parent NULLS LAST, r.attr NULLS LAST, r.child NULLS LAST) - 1 AS rec,
  r.node AS node,
  r.depth AS depth,
  r.support AS support,
  r.cost AS cost,
  r.parent AS parent,
  r.attr AS attr,
  r.child AS child
FROM kept;
