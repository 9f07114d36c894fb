-- est_answers_read (sql/estimate.sql) as Spark SQL; $name parameters left unbound
SELECT
  qid,
  estimate,
  lower,
  upper
FROM est_answers
ORDER BY
  qid NULLS LAST;
