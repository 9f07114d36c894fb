-- rt_eval_attack_read (sql/rt_evaluate.sql) as Spark SQL; $name parameters left unbound
SELECT
  tid,
  size,
  candidates
FROM eval_rt_attack
ORDER BY
  tid NULLS LAST;
