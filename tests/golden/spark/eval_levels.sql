-- eval_levels (sql/evaluate.sql) as Spark SQL; $name parameters left unbound
SELECT
  levels_up,
  COUNT(*) AS instances
FROM eval_generalization
GROUP BY
  levels_up
ORDER BY
  levels_up NULLS LAST;
