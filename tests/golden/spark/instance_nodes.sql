-- instance_nodes (sql/instance_loss.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS instance_node;

CREATE TABLE instance_node
USING PARQUET AS
WITH under AS (
  SELECT
    t.tid,
    c.ancestor AS node,
    COUNT(*) AS items
  FROM tx AS t
  JOIN closure AS c
    ON c.node = t.item
  GROUP BY
    t.tid,
    c.ancestor
), copies AS (
  SELECT
    tid,
    node,
    COUNT(*) AS copies
  FROM release
  GROUP BY
    tid,
    node
)
SELECT
  u.tid,
  u.node,
  n.parent,
  n.depth,
  n.ncp,
  n.lm,
  u.items,
  COALESCE(c.copies, 0) AS copies
FROM under AS u
JOIN node AS n
  ON n.id = u.node
LEFT JOIN copies AS c
  ON c.tid = u.tid AND c.node = u.node;
