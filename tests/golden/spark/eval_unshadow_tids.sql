-- eval_unshadow_tids (sql/evaluate_sample.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS temp.main.tids;
