-- registry_stale_runs (sql/registry.sql) as Spark SQL; $name parameters left unbound
SELECT
  run_id,
  name
FROM setanon.runs
WHERE
  status = 'running'
ORDER BY
  run_id NULLS LAST;
