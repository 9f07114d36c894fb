-- km_sample_keys (sql/km_anonymity.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS sample_keys;

CREATE TABLE sample_keys
USING PARQUET AS
SELECT
  tid * $span + node AS key
FROM expanded
WHERE
  tid % $share = 0;
