-- partition_tail_append_blocked (sql/partition.sql) as Spark SQL; $name parameters left unbound
INSERT INTO partition_blocked
SELECT
  *
FROM partition_tail_new_blocked;
