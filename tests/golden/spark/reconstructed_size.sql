-- reconstructed_size (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
SELECT
  COUNT(DISTINCT tid) AS transactions,
  COUNT(*) AS items
FROM reconstructed;
