-- registry_run_by_name (sql/registry.sql) as Spark SQL; $name parameters left unbound
SELECT
  *
FROM setanon.runs
WHERE
  name = $name AND status IN ('running', 'complete')
ORDER BY
  run_id DESC
LIMIT 1;
