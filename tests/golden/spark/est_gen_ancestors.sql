-- est_gen_ancestors (sql/estimate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS est_gen_ancestors;

CREATE TABLE est_gen_ancestors
USING PARQUET AS
WITH RECURSIVE nodes AS (
  SELECT
    child AS node
  FROM hierarchy
  UNION
  SELECT
    parent
  FROM hierarchy
), leaves AS (
  SELECT
    node
  FROM nodes
  ANTI JOIN hierarchy AS h
    ON h.parent = nodes.node
), up(leaf, ancestor) AS (
  SELECT
    node,
    node
  FROM leaves
  UNION ALL
  SELECT
    u.leaf,
    h.parent
  FROM up AS u
  JOIN hierarchy AS h
    ON h.child = u.ancestor
), counts AS (
  SELECT
    ancestor,
    COUNT(DISTINCT leaf) AS leaves
  FROM up
  GROUP BY
    ancestor
)
SELECT DISTINCT
  u.leaf,
  u.ancestor,
  c.leaves
FROM up AS u
JOIN counts AS c
  ON c.ancestor = u.ancestor;
