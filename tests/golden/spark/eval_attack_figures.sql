-- eval_attack_figures (sql/evaluate.sql) as Spark SQL; $name parameters left unbound
SELECT
  known,
  COUNT(*) AS targets,
  AVG(CASE WHEN candidates BETWEEN 1 AND $k - 1 THEN 1.0 ELSE 0.0 END) AS below_k,
  AVG(CASE WHEN candidates = 1 THEN 1.0 ELSE 0.0 END) AS `unique`,
  AVG(CASE WHEN candidates = 0 THEN 1.0 ELSE 0.0 END) AS no_match,
  MIN(candidates) FILTER(WHERE
    candidates > 0) AS min_candidates,
  MEDIAN(candidates) FILTER(WHERE
    candidates > 0) AS median_candidates
FROM eval_attacks
GROUP BY
  known
ORDER BY
  known NULLS LAST;
