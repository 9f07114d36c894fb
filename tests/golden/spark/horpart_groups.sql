-- horpart_groups (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS horpart_groups;

CREATE TABLE horpart_groups
USING PARQUET AS
SELECT
  part,
  rank,
  COUNT(*) AS size
FROM horpart_first
GROUP BY
  part,
  rank;
