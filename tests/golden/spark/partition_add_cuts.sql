-- partition_add_cuts (sql/partition.sql) as Spark SQL; $name parameters left unbound
WITH made AS (
  SELECT
    *
  FROM partition_tree
  WHERE
    level = $level
)
INSERT INTO partition_cut
SELECT
  f.pid,
  c.node
FROM made AS f
JOIN partition_cut AS c
  ON c.pid = f.parent AND c.node <> f.expanded
UNION ALL
SELECT
  f.pid,
  r.id
FROM made AS f
JOIN partition_child_rank AS r
  ON r.parent = f.expanded AND r.rank < 64 AND (
    SHIFTRIGHT(f.mask, r.rank)
  ) & 1 = 1
UNION ALL
SELECT
  pid,
  EXPLODE(wide) AS node
FROM made;
