-- eval_subsets_short (sql/evaluate.sql) as Spark SQL; $name parameters left unbound
SELECT
  size
FROM eval_subsets
GROUP BY
  size
HAVING
  COUNT(DISTINCT itemset) < $n AND COUNT(*) >= $limit
ORDER BY
  size NULLS LAST;
