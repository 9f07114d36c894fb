-- rt_eval_errors (sql/rt_evaluate.sql) as Spark SQL; $name parameters left unbound
SELECT
  q.qid,
  q.attr,
  q.size,
  a.actual,
  e.estimate,
  ABS(e.estimate - a.actual) / a.actual AS relative_error
FROM eval_rt_query AS q
JOIN eval_rt_actual AS a
  ON a.qid = q.qid
JOIN eval_rt_estimate AS e
  ON e.qid = q.qid
ORDER BY
  q.qid NULLS LAST;
