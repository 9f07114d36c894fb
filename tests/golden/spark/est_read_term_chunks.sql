-- est_read_term_chunks (sql/estimate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS term_chunks;

CREATE TABLE term_chunks
USING PARQUET AS
SELECT
  CAST(cluster AS BIGINT) AS cluster,
  CAST(item AS STRING) AS item
FROM est_file_term_chunks;
