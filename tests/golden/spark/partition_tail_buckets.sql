-- partition_tail_buckets (sql/partition.sql) as Spark SQL; $name parameters left unbound
SELECT
  tid,
  pid,
  expanded,
  mask,
  wide,
  tx_gain
FROM partition_bucket;
