-- dv_violations_shown (sql/verify_disassociation.sql) as Spark SQL; $name parameters left unbound
SELECT
  problem,
  unit,
  detail
FROM dv_violations
ORDER BY
  problem NULLS LAST,
  unit NULLS LAST,
  detail NULLS LAST
LIMIT $n;
