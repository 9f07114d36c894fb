-- registry_datasets (sql/registry.sql) as Spark SQL; $name parameters left unbound
SELECT
  d.dataset_id,
  d.kind,
  d.schema_name,
  d.source,
  d.format,
  d.rows,
  d.items,
  d.fingerprint,
  d.created,
  (
    SELECT
      COUNT(*)
    FROM setanon.hierarchies AS h
    WHERE
      h.dataset_id = d.dataset_id
  ) AS hierarchies,
  (
    SELECT
      COUNT(*)
    FROM setanon.runs AS r
    WHERE
      r.dataset_id = d.dataset_id AND r.status = 'complete'
  ) AS runs
FROM setanon.datasets AS d
ORDER BY
  d.dataset_id NULLS LAST;
