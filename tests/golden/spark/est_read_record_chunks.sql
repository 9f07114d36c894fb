-- est_read_record_chunks (sql/estimate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS record_chunks;

CREATE TABLE record_chunks
USING PARQUET AS
SELECT
  CAST(cluster AS BIGINT) AS cluster,
  CAST(chunk AS BIGINT) AS chunk,
  CAST(`row` AS BIGINT) AS `row`,
  CAST(item AS STRING) AS item
FROM est_file_record_chunks;
