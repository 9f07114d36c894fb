-- registry_files_exists (sql/registry.sql) as Spark SQL; $name parameters left unbound
SELECT
  COUNT(*) AS found
FROM information_schema.tables
WHERE
  table_catalog = $catalog AND table_schema = 'setanon' AND table_name = 'files';
