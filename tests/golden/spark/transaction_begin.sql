-- transaction_begin (sql/engine.sql) as Spark SQL; $name parameters left unbound
BEGIN;
