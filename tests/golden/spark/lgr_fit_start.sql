-- lgr_fit_start (sql/lgr.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS lgr_fit_frontier;

CREATE TABLE lgr_fit_frontier
USING PARQUET AS
SELECT
  tid,
  CAST(0 AS BIGINT) AS pid
FROM lgr_cost;
