-- km_expanded_lengths (sql/km_anonymity.sql) as Spark SQL; $name parameters left unbound
SELECT
  n,
  COUNT(*) AS transactions
FROM (
  SELECT
    COUNT(*) - 1 AS n
  FROM expanded
  GROUP BY
    tid
)
GROUP BY
  n
ORDER BY
  n NULLS LAST;
