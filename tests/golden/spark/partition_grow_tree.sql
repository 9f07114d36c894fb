-- partition_grow_tree (sql/partition.sql) as Spark SQL; $name parameters left unbound
INSERT INTO partition_tree
SELECT
  $level,
  new_pid,
  pid,
  expanded,
  mask,
  wide
FROM partition_balance
WHERE
  NOT new_pid IS NULL;
