-- registry_create_files (sql/registry.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS files;

CREATE TABLE IF NOT EXISTS setanon.files (
  path STRING,
  owner STRING,
  owner_id INT,
  created TIMESTAMP_NTZ
)
USING PARQUET;
