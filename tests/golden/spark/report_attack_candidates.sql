-- report_attack_candidates (sql/report.sql) as Spark SQL; $name parameters left unbound
SELECT
  known,
  COLLECT_LIST(candidates) AS candidates
FROM eval_attacks
GROUP BY
  known
ORDER BY
  known NULLS LAST;
