-- registry_dataset_by_file (sql/registry.sql) as Spark SQL; $name parameters left unbound
SELECT
  *
FROM setanon.datasets
WHERE
  kind = $kind
  AND source = $source
  AND reader = $reader
  AND file_size = $size
  AND file_mtime_ns = $mtime
ORDER BY
  dataset_id DESC
LIMIT 1;
