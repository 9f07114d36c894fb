-- rel_release_columns (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
DESCRIBE table_release;
