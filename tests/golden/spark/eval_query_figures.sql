-- eval_query_figures (sql/evaluate.sql) as Spark SQL; $name parameters left unbound
SELECT
  workload,
  size,
  COUNT(*) AS queries,
  AVG(re) AS are,
  MEDIAN(re) AS median_re,
  AVG(CASE WHEN re > 0.5 + 1e-9 THEN 1.0 ELSE 0.0 END) AS over_50,
  AVG(CASE WHEN estimate < actual - 1e-9 THEN 1.0 ELSE 0.0 END) AS underestimated
FROM eval_queries
GROUP BY
  workload,
  size
ORDER BY
  workload NULLS LAST,
  size NULLS LAST;
