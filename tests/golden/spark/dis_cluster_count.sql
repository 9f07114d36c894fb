-- dis_cluster_count (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
SELECT
  MAX(cluster) AS clusters
FROM cluster_members;
