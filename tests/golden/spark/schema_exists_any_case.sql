-- schema_exists_any_case (sql/engine.sql) as Spark SQL; $name parameters left unbound
SELECT
  COUNT(*) AS found
FROM information_schema.schemata
WHERE
  catalog_name = $catalog AND LOWER(schema_name) = LOWER($schema);
