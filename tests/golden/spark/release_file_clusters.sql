-- release_file_clusters (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
SELECT
  cluster,
  size
FROM clusters
ORDER BY
  cluster NULLS LAST;
