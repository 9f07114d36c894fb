-- dis_release_joint_clusters (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS joint_clusters;

CREATE TABLE joint_clusters
USING PARQUET AS
SELECT
  joint,
  cluster
FROM dis_joint
ORDER BY
  joint NULLS LAST,
  cluster NULLS LAST;
