-- folder_record_chunks (sql/release_folder.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS record_chunks;

CREATE TABLE record_chunks
USING PARQUET AS
SELECT
  CAST(cluster AS INT) AS cluster,
  CAST(chunk AS INT) AS chunk,
  CAST(`row` AS BIGINT) AS `row`,
  CAST(item AS STRING) AS item
FROM folder_file;
