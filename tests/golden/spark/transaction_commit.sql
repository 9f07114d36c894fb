-- transaction_commit (sql/engine.sql) as Spark SQL; $name parameters left unbound
COMMIT;
