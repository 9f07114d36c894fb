-- partition_expand_step (sql/partition.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS partition_expand_step;

CREATE TABLE partition_expand_step
USING PARQUET AS
WITH path AS (
  SELECT
    i.item,
    p.id AS node,
    c.id AS child,
    r.rank,
    r.bit,
    p.leaf_count - CASE WHEN $drop AND NOT c.is_leaf THEN c.leaf_count ELSE 0 END AS gain_units
  FROM (
    SELECT DISTINCT
      item
    FROM tx
  ) AS i
  JOIN closure AS up
    ON up.node = i.item AND up.distance > 0
  JOIN closure AS down
    ON down.node = i.item AND down.distance = up.distance - 1
  JOIN node AS p
    ON p.id = up.ancestor
  JOIN node AS c
    ON c.id = down.ancestor
  JOIN partition_child_rank AS r
    ON r.id = c.id
), numbered AS (
  SELECT
    CAST(ROW_NUMBER() OVER (ORDER BY item NULLS LAST, node NULLS LAST) AS INT) AS step,
    *
  FROM path
)
SELECT
  s.*,
  n.step AS next_step
FROM numbered AS s
LEFT JOIN numbered AS n
  ON n.item = s.item AND n.node = s.child;
