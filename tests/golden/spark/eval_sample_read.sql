-- eval_sample_read (sql/evaluate_sample.sql) as Spark SQL; $name parameters left unbound
SELECT
  share,
  seed,
  groups,
  transactions,
  of_transactions
FROM eval_sample;
