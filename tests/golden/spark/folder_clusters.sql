-- folder_clusters (sql/release_folder.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS clusters;

CREATE TABLE clusters
USING PARQUET AS
SELECT
  CAST(cluster AS INT) AS cluster,
  CAST(size AS BIGINT) AS size
FROM folder_file;
