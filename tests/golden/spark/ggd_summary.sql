-- ggd_summary (sql/clump.sql) as Spark SQL; $name parameters left unbound
SELECT
  COUNT(*) AS clusters,
  COALESCE(SUM(ggd), 0) AS ggd,
  SUM(suppressed) / SUM(items) AS suppressed_share
FROM ggd;
