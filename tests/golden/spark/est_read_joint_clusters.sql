-- est_read_joint_clusters (sql/estimate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS joint_clusters;

CREATE TABLE joint_clusters
USING PARQUET AS
SELECT
  CAST(joint AS BIGINT) AS joint,
  CAST(cluster AS BIGINT) AS cluster
FROM est_file_joint_clusters;
