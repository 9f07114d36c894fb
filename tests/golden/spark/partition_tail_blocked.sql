-- partition_tail_blocked (sql/partition.sql) as Spark SQL; $name parameters left unbound
SELECT DISTINCT
  l.pid,
  l.node
FROM partition_blocked AS l
SEMI JOIN partition_bucket AS b
  ON b.pid = l.pid;
