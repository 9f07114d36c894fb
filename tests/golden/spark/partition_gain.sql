-- partition_gain (sql/partition.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS partition_gain;

CREATE TABLE partition_gain
USING PARQUET AS
SELECT DISTINCT
  pid,
  node,
  gain_units,
  gain_units / $scale AS gain
FROM partition_outcome;
