-- partition_tail_cuts (sql/partition.sql) as Spark SQL; $name parameters left unbound
SELECT
  c.pid,
  c.node
FROM partition_cut AS c
SEMI JOIN partition_bucket AS b
  ON b.pid = c.pid;
