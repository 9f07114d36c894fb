-- est_read_clusters (sql/estimate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS clusters;

CREATE TABLE clusters
USING PARQUET AS
SELECT
  CAST(cluster AS BIGINT) AS cluster,
  CAST(size AS BIGINT) AS size
FROM est_file_clusters;
