-- release_set (sql/verify.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS release_set;

CREATE TABLE release_set
USING PARQUET AS
SELECT DISTINCT
  tid,
  node
FROM release;
