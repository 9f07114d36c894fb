-- rel_improved_clusters (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
SELECT
  cluster,
  COLLECT_LIST(rid) AS rows
FROM work
GROUP BY
  cluster
ORDER BY
  MIN(rid) NULLS LAST;
