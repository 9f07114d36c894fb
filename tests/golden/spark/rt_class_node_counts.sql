-- rt_class_node_counts (sql/rt.sql) as Spark SQL; $name parameters left unbound
SELECT
  cluster,
  node,
  COUNT(*) AS n
FROM rt_generalized
GROUP BY
  cluster,
  node
ORDER BY
  cluster NULLS LAST,
  node NULLS LAST;
