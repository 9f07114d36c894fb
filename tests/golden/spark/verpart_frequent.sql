-- verpart_frequent (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS verpart_frequent;

CREATE TABLE verpart_frequent
USING PARQUET AS
SELECT
  unit,
  item,
  COUNT(*) AS support
FROM verpart_occurrence
GROUP BY
  unit,
  item
HAVING
  COUNT(*) >= $k;
