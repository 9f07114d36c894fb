-- eval_unshadow_probes (sql/evaluate_sample.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS temp.main.eval_probes;
