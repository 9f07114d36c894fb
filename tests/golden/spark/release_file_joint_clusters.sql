-- release_file_joint_clusters (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
SELECT
  joint,
  cluster
FROM joint_clusters
ORDER BY
  joint NULLS LAST,
  cluster NULLS LAST;
