-- rel_improve_swap (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
DROP TABLE work;

ALTER TABLE work_next
RENAME TO work;
