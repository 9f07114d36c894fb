-- rel_qi_names (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
SELECT
  name
FROM rel_attr
ORDER BY
  attr NULLS LAST;
