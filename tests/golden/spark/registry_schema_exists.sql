-- registry_schema_exists (sql/registry.sql) as Spark SQL; $name parameters left unbound
SELECT
  COUNT(*) AS found
FROM information_schema.schemata
WHERE
  catalog_name = $catalog AND schema_name = $schema;
