-- k_anonymity_violations (sql/verify.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS violations_k;

CREATE TABLE violations_k
USING PARQUET AS
SELECT
  itemset,
  support
FROM release_classes
WHERE
  support < $k
ORDER BY
  support NULLS LAST,
  itemset NULLS LAST;
