-- registry_dataset (sql/registry.sql) as Spark SQL; $name parameters left unbound
SELECT
  *
FROM setanon.datasets
WHERE
  dataset_id = $id;
