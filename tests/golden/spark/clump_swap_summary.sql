-- clump_swap_summary (sql/clump.sql) as Spark SQL; $name parameters left unbound
SELECT
  COUNT(*) AS chosen,
  COALESCE(SUM(delta), 0) AS delta
FROM clump_swap;
