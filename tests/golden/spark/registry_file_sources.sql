-- registry_file_sources (sql/registry.sql) as Spark SQL; $name parameters left unbound
SELECT
  f.path AS source
FROM setanon.files AS f
WHERE
  f.owner <> 'run'
  OR EXISTS(
    SELECT
      1
    FROM setanon.runs AS r
    WHERE
      r.run_id = f.owner_id AND r.status = 'complete'
  );
