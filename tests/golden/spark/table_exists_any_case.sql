-- table_exists_any_case (sql/engine.sql) as Spark SQL; $name parameters left unbound
SELECT
  COUNT(*) AS found
FROM information_schema.tables
WHERE
  table_catalog = $catalog
  AND LOWER(table_schema) = LOWER($schema)
  AND LOWER(table_name) = LOWER($table);
