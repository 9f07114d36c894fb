-- sql_log_read (sql/runs.sql) as Spark SQL; $name parameters left unbound
SELECT
  step,
  sql,
  params,
  seconds
FROM $log
WHERE
  $step IS NULL OR step = $step
ORDER BY
  seq NULLS LAST;
