-- rel_improve_width (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
SELECT
  LENGTH(node) AS width
FROM improve_class
LIMIT 1;
