-- rel_improve_branch (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS improve_branch;

CREATE TABLE improve_branch
USING PARQUET AS
WITH closure AS (
  SELECT
    cluster,
    size,
    cost,
    EXPLODE(node) AS node,
    GENERATE_SUBSCRIPTS(node, 1) AS attr
  FROM improve_class
)
SELECT
  w.rid,
  w.cluster,
  c.size,
  c.cost,
  l.attr AS i,
  a.node AS child
FROM work AS w
JOIN improve_leaf AS l
  USING (rid)
JOIN closure AS c
  ON c.cluster = w.cluster AND c.attr = l.attr
JOIN rel_ancestor AS a
  ON a.attr = l.attr AND a.leaf = l.leaf
JOIN rel_node AS n
  ON n.attr = a.attr AND n.id = a.node AND n.parent = c.node;
