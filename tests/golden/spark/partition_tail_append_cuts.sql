-- partition_tail_append_cuts (sql/partition.sql) as Spark SQL; $name parameters left unbound
INSERT INTO partition_cut
SELECT
  *
FROM partition_tail_new_cuts;
