-- dv_problems (sql/verify_disassociation.sql) as Spark SQL; $name parameters left unbound
SELECT
  problem,
  COUNT(*) AS n
FROM dv_violations
GROUP BY
  problem
ORDER BY
  problem NULLS LAST;
