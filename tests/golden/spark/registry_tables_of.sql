-- registry_tables_of (sql/registry.sql) as Spark SQL; $name parameters left unbound
SELECT
  t.table_name
FROM information_schema.tables AS t
WHERE
  t.table_catalog = $catalog AND t.table_schema = $schema
ORDER BY
  1 NULLS LAST;
