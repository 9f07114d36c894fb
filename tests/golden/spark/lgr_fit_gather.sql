-- lgr_fit_gather (sql/lgr.sql) as Spark SQL; $name parameters left unbound
INSERT INTO lgr_fit
SELECT
  tid,
  pid
FROM lgr_fit_frontier;
