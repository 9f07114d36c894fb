-- registry_hierarchies_of (sql/registry.sql) as Spark SQL; $name parameters left unbound
SELECT
  *
FROM setanon.hierarchies
WHERE
  dataset_id = $dataset
ORDER BY
  hierarchy_id NULLS LAST;
