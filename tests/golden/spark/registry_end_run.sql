-- registry_end_run (sql/registry.sql) as Spark SQL; $name parameters left unbound
UPDATE setanon.runs SET status = $status, finished = CURRENT_TIMESTAMP(), seconds = $seconds, results = $results, message = $message
WHERE
  run_id = $id;
