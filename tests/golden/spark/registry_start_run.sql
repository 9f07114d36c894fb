-- registry_start_run (sql/registry.sql) as Spark SQL; $name parameters left unbound
INSERT INTO setanon.runs
VALUES
  (
    $id,
    $name,
    $kind,
    $dataset,
    $hierarchy,
    $algorithm,
    $params,
    'running',
    CURRENT_TIMESTAMP(),
    NULL,
    NULL,
    NULL,
    NULL
  );
