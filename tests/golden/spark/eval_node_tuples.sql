-- eval_node_tuples (sql/evaluate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_node_tuples;

CREATE TABLE eval_node_tuples
USING PARQUET AS
WITH RECURSIVE needed AS (
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
  /* each tuple's two rarest nodes, in id order, with how often each repeats */
  SELECT
    p1.tuple,
    LEAST(p1.node, p2.node) AS lo,
    GREATEST(p1.node, p2.node) AS hi,
    CASE WHEN p1.node < p2.node THEN p1.times ELSE p2.times END AS lo_times,
    CASE WHEN p1.node < p2.node THEN p2.times ELSE p1.times END AS hi_times
  FROM positions AS p1
  JOIN positions AS p2
    ON p2.tuple = p1.tuple AND p2.pos = 2
  WHERE
    p1.pos = 1
), pair_nodes AS MATERIALIZED (
  /* the pairs of a class's nodes (by id) that begin some tuple: a join within each class */
  SELECT
    a.cls,
    a.node AS lo,
    b.node AS hi,
    a.weight AS lo_weight,
    b.weight AS hi_weight
  FROM eval_class_nodes AS a
  JOIN eval_class_nodes AS b
    ON b.cls = a.cls AND b.node > a.node
  SEMI JOIN firsts AS f
    ON f.lo = a.node AND f.hi = b.node
), anchors AS (
  SELECT
    p1.tuple,
    c1.cls,
    1 AS pos,
    POWER(c1.weight, p1.times) AS weight
  FROM positions AS p1
  JOIN eval_class_nodes AS c1
    ON c1.node = p1.node
  WHERE
    p1.pos = 1 AND p1.width = 1
  UNION ALL
  SELECT
    f.tuple,
    c.cls,
    2 AS pos,
    POWER(c.lo_weight, f.lo_times) * POWER(c.hi_weight, f.hi_times) AS weight
  FROM firsts AS f
  JOIN pair_nodes AS c
    ON c.lo = f.lo AND c.hi = f.hi
), held(tuple, cls, pos, weight) AS (
  SELECT
    tuple,
    cls,
    pos,
    weight
  FROM anchors
  UNION ALL
  SELECT
    h.tuple,
    h.cls,
    h.pos + 1,
    h.weight * POWER(c.weight, p.times)
  FROM held AS h
  JOIN positions AS p
    ON p.tuple = h.tuple AND p.pos = h.pos + 1
  JOIN eval_class_nodes AS c
    ON c.cls = h.cls AND c.node = p.node
)
SELECT
  ANY_VALUE(n.nodes) IGNORE NULLS AS nodes,
  SUM(k.support * h.weight) AS estimate,
  SUM(k.support) AS candidates
FROM held AS h
JOIN positions AS p
  ON p.tuple = h.tuple AND p.pos = 1 AND h.pos = p.width
JOIN needed AS n
  ON n.tuple = h.tuple
JOIN eval_classes AS k
  ON k.cls = h.cls
GROUP BY
  h.tuple;
