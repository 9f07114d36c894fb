-- eval_table_risk (sql/evaluate.sql) as Spark SQL; $name parameters left unbound
SELECT
  SUM(support) AS rows,
  COUNT(*) AS classes,
  MAX(1.0 / support) AS max_risk,
  COUNT(*) / SUM(support) AS mean_risk,
  COALESCE(SUM(support) FILTER(WHERE
    1.0 / support > $threshold), 0) / SUM(support) AS over_threshold,
  MAX(1.0 / diversity) AS max_sensitive_probability
FROM eval_table_classes;
