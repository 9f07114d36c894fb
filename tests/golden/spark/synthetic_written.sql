-- synthetic_written (sql/synthetic.sql) as Spark SQL; $name parameters left unbound
SELECT
  COUNT(*) AS rows,
  COUNT(DISTINCT item) AS items
FROM parquet.`$p`;
