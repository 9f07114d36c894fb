-- eval_intervals_read (sql/evaluate_sample.sql) as Spark SQL; $name parameters left unbound
SELECT
  workload,
  size,
  figure,
  value,
  low,
  high
FROM eval_intervals
ORDER BY
  workload NULLS LAST,
  size NULLS LAST,
  figure NULLS LAST;
