-- rel_l_merge_read (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
SELECT
  *
FROM l_merge;
