-- registry_rename_run (sql/registry.sql) as Spark SQL; $name parameters left unbound
UPDATE setanon.runs SET name = $name
WHERE
  run_id = $id;
