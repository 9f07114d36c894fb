-- km_generalized_lengths (sql/km_anonymity.sql) as Spark SQL; $name parameters left unbound
SELECT
  n,
  COUNT(*) AS transactions
FROM (
  SELECT
    COUNT(*) AS n
  FROM generalized
  GROUP BY
    tid
)
GROUP BY
  n
ORDER BY
  n NULLS LAST;
