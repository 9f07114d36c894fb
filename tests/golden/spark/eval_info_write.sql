-- eval_info_write (sql/evaluate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_info;

CREATE TABLE eval_info
USING PARQUET AS
SELECT
  CAST($workload AS STRING) AS workload,
  CAST($model AS STRING) AS model,
  CAST($ncp AS DOUBLE) AS ncp,
  CAST($lm AS DOUBLE) AS lm,
  CAST($seconds AS DOUBLE) AS seconds;
