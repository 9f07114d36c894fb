-- registry_record_tables (sql/registry.sql) as Spark SQL; $name parameters left unbound
INSERT INTO setanon.objects
SELECT
  t.table_schema,
  t.table_name,
  $owner,
  $owner_id,
  CURRENT_TIMESTAMP()
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
  );
