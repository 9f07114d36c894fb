-- folder_joint_clusters_empty (sql/release_folder.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS joint_clusters;

CREATE TABLE joint_clusters (
  joint INT,
  cluster INT
)
USING PARQUET;
