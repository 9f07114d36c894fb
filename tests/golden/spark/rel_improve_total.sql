-- rel_improve_total (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
SELECT
  SUM(size * cost) AS cost
FROM improve_class;
