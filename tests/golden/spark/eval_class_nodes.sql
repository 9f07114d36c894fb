-- eval_class_nodes (sql/evaluate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_class_nodes;

CREATE TABLE eval_class_nodes
USING PARQUET AS
WITH released AS (
  SELECT
    c.cls,
    c.node,
    ANY_VALUE(n.last) IGNORE NULLS AS last,
    LEAST(
      1.0,
      (
        CASE WHEN $multiset THEN COUNT(*) ELSE 1 END
      ) / ANY_VALUE(n.leaf_count) IGNORE NULLS
    ) AS weight,
    ANY_VALUE(c.support) IGNORE NULLS AS support
  FROM (
    SELECT
      cls,
      support,
      EXPLODE(nodes) AS node
    FROM eval_classes
  ) AS c
  JOIN node AS n
    ON n.id = c.node
  GROUP BY
    c.cls,
    c.node
), flagged AS (
  /* a node lies under another of its class when an earlier one in preorder reaches it */
  SELECT
    *,
    COALESCE(
      MAX(last) OVER (
        PARTITION BY cls
        ORDER BY node NULLS LAST
        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
      ),
      -1
    ) >= node AS nested
  FROM released
), nested_classes AS (
  SELECT DISTINCT
    cls
  FROM flagged
  WHERE
    nested
), below_top AS (
  /* every released node under another one of its class, with the highest of those above it */
  /* (the smallest preorder id) */
  SELECT
    b.cls,
    b.node,
    MIN(a.node) AS top
  FROM flagged AS b
  JOIN released AS a
    ON a.cls = b.cls AND b.node > a.node AND b.node <= a.last
  WHERE
    b.nested
  GROUP BY
    b.cls,
    b.node
), open AS (
  /* the nodes on the way up from each such node to its top one, the top one included */
  SELECT DISTINCT
    b.cls,
    x.ancestor AS node
  FROM below_top AS b
  JOIN closure AS x
    ON x.node = b.node AND x.distance > 0 AND x.ancestor >= b.top
), nested_released AS (
  SELECT
    r.*
  FROM released AS r
  SEMI JOIN nested_classes AS c
    ON c.cls = r.cls
), flat AS (
  SELECT
    cls,
    node
  FROM nested_released
  UNION
  SELECT
    o.cls,
    n.id AS node
  FROM open AS o
  JOIN node AS n
    ON n.parent = o.node
)
/* a class without nested nodes is an antichain already */
SELECT
  r.cls,
  r.node,
  r.weight,
  r.support
FROM released AS r
ANTI JOIN nested_classes AS c
  ON c.cls = r.cls
UNION ALL
SELECT
  f.cls,
  f.node,
  LEAST(1.0, SUM(r.weight)) AS weight,
  ANY_VALUE(r.support) IGNORE NULLS AS support
FROM flat AS f
ANTI JOIN open AS o
  ON o.cls = f.cls AND o.node = f.node
JOIN nested_released AS r
  ON r.cls = f.cls AND f.node BETWEEN r.node AND r.last
GROUP BY
  f.cls,
  f.node;
