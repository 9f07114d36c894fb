-- instance_match_level (sql/instance_loss.sql) as Spark SQL; $name parameters left unbound
WITH children AS (
  SELECT
    tid,
    parent AS node,
    SUM(matched) AS below
  FROM instance_match
  WHERE
    depth = $depth + 1
  GROUP BY
    tid,
    parent
)
INSERT INTO instance_match
SELECT
  n.tid,
  n.node,
  n.parent,
  n.depth,
  n.ncp,
  n.lm,
  LEAST(n.items, n.copies + COALESCE(c.below, 0)) AS matched,
  COALESCE(c.below, 0) AS below
FROM instance_node AS n
LEFT JOIN children AS c
  ON c.tid = n.tid AND c.node = n.node
WHERE
  n.depth = $depth;
