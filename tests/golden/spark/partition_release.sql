-- partition_release (sql/partition.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS release;

CREATE TABLE release
USING PARQUET AS
SELECT
  o.tid,
  c.node
FROM partition_of AS o
JOIN partition_cut AS c
  USING (pid)
ORDER BY
  o.tid NULLS LAST,
  c.node NULLS LAST;
