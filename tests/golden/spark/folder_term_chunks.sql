-- folder_term_chunks (sql/release_folder.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS term_chunks;

CREATE TABLE term_chunks
USING PARQUET AS
SELECT
  CAST(cluster AS INT) AS cluster,
  CAST(item AS STRING) AS item
FROM folder_file;
