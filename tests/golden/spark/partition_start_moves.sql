-- partition_start_moves (sql/partition.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS partition_moves;

CREATE TABLE partition_moves (
  level INT,
  tid BIGINT,
  pid INT
)
USING PARQUET;
