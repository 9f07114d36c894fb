-- registry_runs (sql/registry.sql) as Spark SQL; $name parameters left unbound
SELECT
  r.run_id,
  r.name,
  r.kind,
  r.status,
  r.algorithm,
  r.params,
  r.dataset_id,
  d.source,
  r.hierarchy_id,
  h.source AS hierarchy,
  r.started,
  r.seconds,
  r.results,
  r.message
FROM setanon.runs AS r
LEFT JOIN setanon.datasets AS d
  USING (dataset_id)
LEFT JOIN setanon.hierarchies AS h
  USING (hierarchy_id)
ORDER BY
  r.run_id NULLS LAST;
