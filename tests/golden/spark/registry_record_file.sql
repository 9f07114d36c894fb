-- registry_record_file (sql/registry.sql) as Spark SQL; $name parameters left unbound
INSERT INTO setanon.files
SELECT
  $path,
  $owner,
  $owner_id,
  CURRENT_TIMESTAMP()
WHERE
  NOT EXISTS(
    SELECT
      1
    FROM setanon.files
    WHERE
      path = $path AND owner = $owner AND owner_id = $owner_id
  );
