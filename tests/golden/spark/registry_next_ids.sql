-- registry_next_ids (sql/registry.sql) as Spark SQL; $name parameters left unbound
SELECT
  (
    SELECT
      COALESCE(MAX(dataset_id), 0) + 1
    FROM setanon.datasets
  ) AS dataset,
  (
    SELECT
      COALESCE(MAX(hierarchy_id), 0) + 1
    FROM setanon.hierarchies
  ) AS hierarchy,
  (
    SELECT
      COALESCE(MAX(run_id), 0) + 1
    FROM setanon.runs
  ) AS run;
