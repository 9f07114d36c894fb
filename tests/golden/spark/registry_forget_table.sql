-- registry_forget_table (sql/registry.sql) as Spark SQL; $name parameters left unbound
DELETE FROM setanon.objects
WHERE
  schema_name = $schema AND table_name = $table;
