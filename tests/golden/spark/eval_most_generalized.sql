-- eval_most_generalized (sql/evaluate.sql) as Spark SQL; $name parameters left unbound
SELECT
  n.label AS item,
  COUNT(*) AS instances,
  AVG(COALESCE(g.ncp, 1.0)) AS mean_ncp,
  AVG(g.levels_up) AS mean_levels_up,
  COUNT(*) FILTER(WHERE
    g.ncp IS NULL) AS suppressed
FROM eval_generalization AS g
JOIN node AS n
  ON n.id = g.item
GROUP BY
  n.label
ORDER BY
  ROUND(mean_ncp, 9) DESC,
  instances DESC,
  item NULLS LAST
LIMIT $n;
