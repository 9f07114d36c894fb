-- folder_joint_clusters (sql/release_folder.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS joint_clusters;

CREATE TABLE joint_clusters
USING PARQUET AS
SELECT
  CAST(joint AS INT) AS joint,
  CAST(cluster AS INT) AS cluster
FROM folder_file;
