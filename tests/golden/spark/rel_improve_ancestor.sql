-- rel_improve_ancestor (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS rel_ancestor;

CREATE TABLE rel_ancestor
USING PARQUET AS
WITH leaves AS (
  SELECT DISTINCT
    EXPLODE(leaf) AS leaf,
    GENERATE_SUBSCRIPTS(leaf, 1) AS attr
  FROM rel_combo
)
SELECT
  l.attr,
  l.leaf,
  n.id AS node,
  n.last,
  n.cost
FROM leaves AS l
JOIN rel_node AS n
  ON n.attr = l.attr AND n.id <= l.leaf AND n.last >= l.leaf;
