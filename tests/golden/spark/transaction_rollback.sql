-- transaction_rollback (sql/engine.sql) as Spark SQL; $name parameters left unbound
ROLLBACK;
