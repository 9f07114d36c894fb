-- k_anonymity_violations (sql/verify.sql) as Spark SQL; $name parameters left unbound
SELECT
  itemset,
  support
FROM release_classes
WHERE
  support < $k
ORDER BY
  support NULLS LAST,
  itemset NULLS LAST;
