-- current_schema (sql/engine.sql) as Spark SQL; $name parameters left unbound
SELECT
  CURRENT_SCHEMA() AS schema;
