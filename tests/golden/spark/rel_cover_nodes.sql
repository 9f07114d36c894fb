-- rel_cover_nodes (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
SELECT
  attr,
  id,
  parent
FROM rel_node
ORDER BY
  attr NULLS LAST,
  id DESC;
