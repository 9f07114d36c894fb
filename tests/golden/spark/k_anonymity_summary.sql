-- k_anonymity_summary (sql/verify.sql) as Spark SQL; $name parameters left unbound
SELECT
  (
    SELECT
      COUNT(*)
    FROM release_classes
  ) AS classes,
  COUNT(*) AS failing,
  COALESCE(SUM(support), 0) AS transactions
FROM violations_k;
