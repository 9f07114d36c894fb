-- dataset_stats (sql/dataset.sql) as Spark SQL; $name parameters left unbound
SELECT
  COUNT(DISTINCT tid) AS transactions,
  COUNT(DISTINCT label) AS items,
  COUNT(*) AS occurrences,
  MAX(n) AS longest,
  AVG(n) AS mean_length
FROM (
  SELECT
    tid,
    label,
    COUNT(*) OVER (PARTITION BY tid) AS n
  FROM tx_raw
);
