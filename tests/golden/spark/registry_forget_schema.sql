-- registry_forget_schema (sql/registry.sql) as Spark SQL; $name parameters left unbound
DELETE FROM setanon.objects
WHERE
  schema_name = $schema;
