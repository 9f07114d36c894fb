-- partition_start_done (sql/partition.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS partition_done;

CREATE TABLE partition_done (
  tid BIGINT,
  pid INT
)
USING PARQUET;
