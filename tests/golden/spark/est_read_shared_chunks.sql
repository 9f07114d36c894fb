-- est_read_shared_chunks (sql/estimate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS shared_chunks;

CREATE TABLE shared_chunks
USING PARQUET AS
SELECT
  CAST(joint AS BIGINT) AS joint,
  CAST(chunk AS BIGINT) AS chunk,
  CAST(`row` AS BIGINT) AS `row`,
  CAST(item AS STRING) AS item
FROM est_file_shared_chunks;
