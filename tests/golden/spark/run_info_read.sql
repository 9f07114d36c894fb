-- run_info_read (sql/runs.sql) as Spark SQL; $name parameters left unbound
SELECT
  key,
  value
FROM run_info
ORDER BY
  rowid NULLS LAST;
