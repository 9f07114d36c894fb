-- partition_start_blocked (sql/partition.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS partition_blocked;

CREATE TABLE partition_blocked (
  pid BIGINT,
  node INT
)
USING PARQUET;
