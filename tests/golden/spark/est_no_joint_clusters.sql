-- est_no_joint_clusters (sql/estimate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS joint_clusters;

CREATE TABLE joint_clusters (
  joint BIGINT,
  cluster BIGINT
)
USING PARQUET;
