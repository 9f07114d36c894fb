-- release_identity (sql/verify.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS release;

CREATE TABLE release
USING PARQUET AS
SELECT
  tid,
  item AS node
FROM tx;
