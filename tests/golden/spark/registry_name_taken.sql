-- registry_name_taken (sql/registry.sql) as Spark SQL; $name parameters left unbound
SELECT
  EXISTS(
    SELECT
      1
    FROM information_schema.schemata
    WHERE
      catalog_name = $catalog AND LOWER(schema_name) = LOWER($name)
  )
  OR EXISTS(
    SELECT
      1
    FROM information_schema.tables
    WHERE
      table_catalog = $catalog AND LOWER(table_name) = LOWER($name)
  ) AS taken;
