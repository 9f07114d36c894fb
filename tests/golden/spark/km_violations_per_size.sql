-- km_violations_per_size (sql/verify.sql) as Spark SQL; $name parameters left unbound
SELECT
  size,
  COUNT(*) AS itemsets
FROM violations_km
GROUP BY
  size;
