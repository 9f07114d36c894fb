-- est_read_release (sql/estimate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS release;

CREATE TABLE release
USING PARQUET AS
SELECT
  CAST(tid AS STRING) AS tid,
  CAST(item AS STRING) AS item
FROM est_file_release;
