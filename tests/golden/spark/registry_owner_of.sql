-- registry_owner_of (sql/registry.sql) as Spark SQL; $name parameters left unbound
SELECT
  owner,
  owner_id
FROM setanon.objects
WHERE
  schema_name = $schema AND table_name IS NOT DISTINCT FROM $table;
