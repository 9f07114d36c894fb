-- eval_unshadow_release (sql/evaluate_sample.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS temp.main.release;
