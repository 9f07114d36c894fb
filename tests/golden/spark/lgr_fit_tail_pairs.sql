-- lgr_fit_tail_pairs (sql/lgr.sql) as Spark SQL; $name parameters left unbound
SELECT
  tid,
  pid
FROM lgr_fit_frontier;
