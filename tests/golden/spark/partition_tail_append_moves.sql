-- partition_tail_append_moves (sql/partition.sql) as Spark SQL; $name parameters left unbound
INSERT INTO partition_moves
SELECT
  *
FROM partition_tail_new_moves;
