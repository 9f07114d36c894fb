-- registry_hierarchy_by_fingerprint (sql/registry.sql) as Spark SQL; $name parameters left unbound
SELECT
  *
FROM setanon.hierarchies
WHERE
  dataset_id = $dataset AND fingerprint = $fingerprint
ORDER BY
  hierarchy_id DESC
LIMIT 1;
