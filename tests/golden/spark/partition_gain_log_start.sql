-- partition_gain_log_start (sql/partition.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS partition_gain_log;

CREATE TABLE partition_gain_log
USING PARQUET AS
SELECT
  $level AS level,
  *
FROM partition_gain;
