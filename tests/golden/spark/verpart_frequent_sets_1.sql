-- verpart_frequent_sets_1 (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS verpart_sets_1;

CREATE TABLE verpart_sets_1
USING PARQUET AS
SELECT
  unit,
  ARRAY(item) AS itemset,
  support
FROM verpart_frequent;
