-- partition_tail_append_tree (sql/partition.sql) as Spark SQL; $name parameters left unbound
INSERT INTO partition_tree
SELECT
  *
FROM partition_tail_new_tree;
