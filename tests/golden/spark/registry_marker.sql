-- registry_marker (sql/registry.sql) as Spark SQL; $name parameters left unbound
SELECT
  value
FROM setanon.meta
WHERE
  key = 'created_by';
