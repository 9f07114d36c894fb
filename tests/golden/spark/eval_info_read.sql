-- eval_info_read (sql/evaluate.sql) as Spark SQL; $name parameters left unbound
SELECT
  workload,
  model,
  ncp,
  lm,
  seconds
FROM eval_info;
