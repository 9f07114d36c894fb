-- rel_make_closed_record (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS closed_record;

CREATE TABLE closed_record (
  rec BIGINT,
  node ARRAY<INT>,
  support BIGINT,
  level INT
)
USING PARQUET;
