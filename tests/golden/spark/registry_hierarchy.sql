-- registry_hierarchy (sql/registry.sql) as Spark SQL; $name parameters left unbound
SELECT
  *
FROM setanon.hierarchies
WHERE
  hierarchy_id = $id;
