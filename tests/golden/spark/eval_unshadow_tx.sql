-- eval_unshadow_tx (sql/evaluate_sample.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS temp.main.tx;
