-- folder_shared_chunks (sql/release_folder.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS shared_chunks;

CREATE TABLE shared_chunks
USING PARQUET AS
SELECT
  CAST(joint AS INT) AS joint,
  CAST(chunk AS INT) AS chunk,
  CAST(`row` AS BIGINT) AS `row`,
  CAST(item AS STRING) AS item
FROM folder_file;
