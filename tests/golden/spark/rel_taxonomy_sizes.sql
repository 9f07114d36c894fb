-- rel_taxonomy_sizes (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
SELECT
  attr,
  COUNT(*) AS nodes
FROM rel_node
GROUP BY
  attr
ORDER BY
  attr NULLS LAST;
