-- partition_start_tree (sql/partition.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS partition_tree;

CREATE TABLE partition_tree (
  level INT,
  pid BIGINT,
  parent BIGINT,
  expanded INT,
  mask BIGINT,
  wide ARRAY<INT>
)
USING PARQUET;
