-- eval_class_nodes (sql/evaluate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_class_nodes;

CREATE TABLE eval_class_nodes
USING PARQUET AS
WITH released AS (
  SELECT
    c.cls,
    c.node,
    LEAST(
      1.0,
      (
        CASE WHEN $multiset THEN COUNT(*) ELSE 1 END
      ) / ANY_VALUE(n.leaf_count) IGNORE NULLS
    ) AS weight
  FROM (
    SELECT
      cls,
      EXPLODE(nodes) AS node
    FROM eval_classes
  ) AS c
  JOIN node AS n
    ON n.id = c.node
  GROUP BY
    c.cls,
    c.node
), open AS (
  SELECT DISTINCT
    b.cls,
    x.ancestor AS node
  FROM released AS b
  JOIN closure AS x
    ON x.node = b.node AND x.distance > 0
  JOIN closure AS y
    ON y.node = x.ancestor
  JOIN released AS a
    ON a.cls = b.cls AND a.node = y.ancestor
), flat AS (
  SELECT
    cls,
    node
  FROM released
  UNION
  SELECT
    o.cls,
    n.id AS node
  FROM open AS o
  JOIN node AS n
    ON n.parent = o.node
)
SELECT
  f.cls,
  f.node,
  LEAST(1.0, SUM(r.weight)) AS weight
FROM flat AS f
ANTI JOIN open AS o
  ON o.cls = f.cls AND o.node = f.node
JOIN closure AS up
  ON up.node = f.node
JOIN released AS r
  ON r.cls = f.cls AND r.node = up.ancestor
GROUP BY
  f.cls,
  f.node;
