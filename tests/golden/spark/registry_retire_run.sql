-- registry_retire_run (sql/registry.sql) as Spark SQL; $name parameters left unbound
UPDATE setanon.runs SET status = $status
WHERE
  run_id = $id;
