-- rel_improve_node_rows (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS improve_node_rows;

CREATE TABLE improve_node_rows
USING PARQUET AS
SELECT
  l.attr,
  a.node,
  COUNT(*) AS rows
FROM improve_leaf AS l
JOIN rel_ancestor AS a
  ON a.attr = l.attr AND a.leaf = l.leaf
GROUP BY
  l.attr,
  a.node;
