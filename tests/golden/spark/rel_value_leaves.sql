-- rel_value_leaves (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS rel_row_leaves;

CREATE TABLE rel_row_leaves
USING PARQUET AS
SELECT
  l.rid,
  COLLECT_LIST(n.id) AS leaf
FROM rel_long AS l
JOIN rel_node AS n
  ON n.attr = l.attr AND n.label = l.label
GROUP BY
  l.rid;
