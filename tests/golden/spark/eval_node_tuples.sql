-- eval_node_tuples (sql/evaluate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_node_tuples;

CREATE TABLE eval_node_tuples
USING PARQUET AS
WITH needed AS (
  SELECT
    ROW_NUMBER() OVER () AS tuple,
    nodes
  FROM (
    SELECT DISTINCT
      nodes
    FROM eval_covers
  )
), classes_of AS (
  SELECT
    node,
    COUNT(*) AS classes
  FROM eval_class_nodes
  GROUP BY
    node
), parts AS (
  SELECT
    n.tuple,
    u.node,
    COUNT(*) AS times,
    LENGTH(ARRAY_COMPACT(ARRAY_DISTINCT(ANY_VALUE(n.nodes) IGNORE NULLS))) AS width
  FROM needed AS n
  LATERAL VIEW
  EXPLODE(n.nodes) u AS node
  GROUP BY
    n.tuple,
    u.node
), positions AS (
  /* a tuple with a node no class holds drops out: no class covers it */
  SELECT
    tuple,
    node,
    times,
    width,
    pos
  FROM (
    /* a tuple with a node no class holds drops out: no class covers it */
    SELECT
      p.tuple,
      p.node,
      p.times,
      p.width,
      ROW_NUMBER() OVER (PARTITION BY p.tuple ORDER BY c.classes NULLS LAST, p.node NULLS LAST) AS pos,
      COUNT(*) OVER (PARTITION BY p.tuple) AS _w
    FROM parts AS p
    JOIN classes_of AS c
      ON c.node = p.node
  ) AS _t
  WHERE
    _w = p.width
), firsts AS (
  /* each tuple of 2+ nodes: its two rarest nodes, in id order, with how often each repeats */
  SELECT
    p1.tuple,
    p1.width,
    LEAST(p1.node, p2.node) AS lo,
    GREATEST(p1.node, p2.node) AS hi,
    CASE WHEN p1.node < p2.node THEN p1.times ELSE p2.times END AS lo_times,
    CASE WHEN p1.node < p2.node THEN p2.times ELSE p1.times END AS hi_times
  FROM positions AS p1
  JOIN positions AS p2
    ON p2.tuple = p1.tuple AND p2.pos = 2
  WHERE
    p1.pos = 1
), pair_hits AS MATERIALIZED (
  /* the pairs of a class's nodes (by id) that begin some tuple: a join within each class */
  SELECT
    a.cls,
    a.support,
    a.node AS lo,
    b.node AS hi,
    a.weight AS lo_weight,
    b.weight AS hi_weight
  FROM eval_class_nodes AS a
  JOIN eval_class_nodes AS b
    ON b.cls = a.cls AND b.node > a.node
  SEMI JOIN firsts AS f
    ON f.lo = a.node AND f.hi = b.node
), anchors AS MATERIALIZED (
  /* every tuple of 2+ nodes in every class holding its two rarest nodes */
  SELECT
    f.tuple,
    f.width,
    h.cls,
    h.support,
    POWER(h.lo_weight, f.lo_times) * POWER(h.hi_weight, f.hi_times) AS weight
  FROM firsts AS f
  JOIN pair_hits AS h
    ON h.lo = f.lo AND h.hi = f.hi
), held AS (
  /* (tuple, support, weight) of every class holding the whole tuple: 1 node, 2 nodes, 3 */
  /* nodes (one lookup each), more (the lookups counted per class) */
  SELECT
    p.tuple,
    c.support,
    POWER(c.weight, p.times) AS weight
  FROM positions AS p
  JOIN eval_class_nodes AS c
    ON c.node = p.node
  WHERE
    p.width = 1
  UNION ALL
  SELECT
    tuple,
    support,
    weight
  FROM anchors
  WHERE
    width = 2
  UNION ALL
  SELECT
    a.tuple,
    a.support,
    a.weight * POWER(c.weight, p.times) AS weight
  FROM anchors AS a
  JOIN positions AS p
    ON p.tuple = a.tuple AND p.pos = 3
  JOIN eval_class_nodes AS c
    ON c.cls = a.cls AND c.node = p.node
  WHERE
    a.width = 3
  UNION ALL
  SELECT
    a.tuple,
    ANY_VALUE(a.support) IGNORE NULLS AS support,
    ANY_VALUE(a.weight) IGNORE NULLS * PRODUCT(POWER(c.weight, p.times)) AS weight
  FROM anchors AS a
  JOIN positions AS p
    ON p.tuple = a.tuple AND p.pos > 2
  JOIN eval_class_nodes AS c
    ON c.cls = a.cls AND c.node = p.node
  WHERE
    a.width > 3
  GROUP BY
    a.tuple,
    a.cls
  HAVING
    COUNT(*) = ANY_VALUE(a.width) IGNORE NULLS - 2
), sums AS (
  SELECT
    tuple,
    SUM(support * weight) AS estimate,
    SUM(support) AS candidates
  FROM held
  GROUP BY
    tuple
)
SELECT
  n.nodes,
  s.estimate,
  s.candidates
FROM sums AS s
JOIN needed AS n
  ON n.tuple = s.tuple;
