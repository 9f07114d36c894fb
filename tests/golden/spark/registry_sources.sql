-- registry_sources (sql/registry.sql) as Spark SQL; $name parameters left unbound
SELECT
  source
FROM setanon.datasets
UNION
SELECT
  source
FROM setanon.hierarchies;
