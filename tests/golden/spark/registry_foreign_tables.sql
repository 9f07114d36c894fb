-- registry_foreign_tables (sql/registry.sql) as Spark SQL; $name parameters left unbound
SELECT
  t.table_name
FROM information_schema.tables AS t
WHERE
  t.table_catalog = $catalog
  AND t.table_schema = $schema
  AND NOT EXISTS(
    SELECT
      1
    FROM setanon.objects AS o
    WHERE
      o.schema_name = t.table_schema AND o.table_name = t.table_name
  )
ORDER BY
  1 NULLS LAST;
