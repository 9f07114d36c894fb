-- registry_add_dataset (sql/registry.sql) as Spark SQL; $name parameters left unbound
INSERT INTO setanon.datasets
VALUES
  (
    $id,
    $schema,
    $kind,
    $source,
    $format,
    $reader,
    $fingerprint,
    $size,
    $mtime,
    $rows,
    $items,
    CURRENT_TIMESTAMP()
  );
