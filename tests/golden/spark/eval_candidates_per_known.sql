-- eval_candidates_per_known (sql/evaluate.sql) as Spark SQL; $name parameters left unbound
SELECT
  known,
  COLLECT_LIST(candidates) AS candidates
FROM eval_attacks
GROUP BY
  known
ORDER BY
  known NULLS LAST;
