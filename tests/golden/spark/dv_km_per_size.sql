-- dv_km_per_size (sql/verify_disassociation.sql) as Spark SQL; $name parameters left unbound
SELECT
  size,
  COUNT(*) AS itemsets
FROM dv_km
GROUP BY
  size;
