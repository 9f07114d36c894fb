-- registry_add_hierarchy (sql/registry.sql) as Spark SQL; $name parameters left unbound
INSERT INTO setanon.hierarchies
VALUES
  (
    $id,
    $dataset,
    $schema,
    $source,
    $fingerprint,
    $nodes,
    $leaves,
    $height,
    CURRENT_TIMESTAMP()
  );
