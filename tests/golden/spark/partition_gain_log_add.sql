-- partition_gain_log_add (sql/partition.sql) as Spark SQL; $name parameters left unbound
INSERT INTO partition_gain_log
SELECT
  $level AS level,
  *
FROM partition_gain;
