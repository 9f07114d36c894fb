-- partition_start_cut (sql/partition.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS partition_cut;

CREATE TABLE partition_cut
USING PARQUET AS
SELECT
  0 AS pid,
  id AS node
FROM node
WHERE
  parent IS NULL;
