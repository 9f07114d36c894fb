-- km_node_stats (sql/km_anonymity.sql) as Spark SQL; $name parameters left unbound
WITH per_leaf AS (
  SELECT
    item,
    COUNT(*) AS instances
  FROM tx
  GROUP BY
    item
), under AS (
  SELECT
    c.ancestor AS id,
    SUM(l.instances) AS instances
  FROM per_leaf AS l
  JOIN closure AS c
    ON c.node = l.item
  GROUP BY
    c.ancestor
), held AS (
  SELECT
    node AS id,
    COUNT(*) AS support
  FROM expanded
  GROUP BY
    node
)
SELECT
  n.id,
  COALESCE(n.parent, -1) AS parent,
  n.last,
  n.depth,
  n.leaf_count,
  COALESCE(u.instances, 0) AS instances,
  COALESCE(h.support, 0) AS support
FROM node AS n
LEFT JOIN under AS u
  USING (id)
LEFT JOIN held AS h
  USING (id)
ORDER BY
  n.id NULLS LAST;
