-- partition_tail_items (sql/partition.sql) as Spark SQL; $name parameters left unbound
SELECT
  t.tid,
  t.item
FROM tx AS t
SEMI JOIN partition_bucket AS b
  ON b.tid = t.tid;
