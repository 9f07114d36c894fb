-- partition_move (sql/partition.sql) as Spark SQL; $name parameters left unbound
INSERT INTO partition_moves
SELECT
  $level,
  tid,
  new_pid
FROM partition_split
WHERE
  NOT new_pid IS NULL;
