-- est_no_shared_chunks (sql/estimate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS shared_chunks;

CREATE TABLE shared_chunks (
  joint BIGINT,
  chunk BIGINT,
  `row` BIGINT,
  item STRING
)
USING PARQUET;
