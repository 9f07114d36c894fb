-- folder_shared_chunks_empty (sql/release_folder.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS shared_chunks;

CREATE TABLE shared_chunks (
  joint INT,
  chunk INT,
  `row` BIGINT,
  item STRING
)
USING PARQUET;
