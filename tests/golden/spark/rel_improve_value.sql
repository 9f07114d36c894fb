-- rel_improve_value (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS improve_value;

CREATE TABLE improve_value
USING PARQUET AS
SELECT
  rid,
  value
FROM rel_sensitive;
