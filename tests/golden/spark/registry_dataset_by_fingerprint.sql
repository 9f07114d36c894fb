-- registry_dataset_by_fingerprint (sql/registry.sql) as Spark SQL; $name parameters left unbound
SELECT
  *
FROM setanon.datasets
WHERE
  kind = $kind AND fingerprint = $fingerprint
ORDER BY
  dataset_id DESC
LIMIT 1;
