-- rel_improve_no_value (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS improve_value;

CREATE TABLE improve_value
USING PARQUET AS
SELECT
  rid,
  CAST(NULL AS STRING) AS value
FROM rel_value;
