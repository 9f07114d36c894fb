-- horpart_start (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS horpart_part;

CREATE TABLE horpart_part
USING PARQUET AS
SELECT
  0 AS part,
  CAST(ARRAY() AS ARRAY<INT>) AS path,
  COUNT(*) AS size,
  COUNT(*) < $max AS final,
  0 AS level
FROM tids;
