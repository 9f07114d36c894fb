-- dis_release_clusters (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS clusters;

CREATE TABLE clusters
USING PARQUET AS
SELECT
  cluster,
  COUNT(*) AS size
FROM cluster_members
GROUP BY
  cluster
ORDER BY
  cluster NULLS LAST;
