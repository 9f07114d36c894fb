-- eval_sample_forget_actuals (sql/evaluate_sample.sql) as Spark SQL; $name parameters left unbound
UPDATE eval_probes SET actual = NULL
WHERE
  workload = 'frequent';
