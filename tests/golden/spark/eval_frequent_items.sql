-- eval_frequent_items (sql/evaluate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_frequent;

CREATE TABLE eval_frequent
USING PARQUET AS
SELECT
  1 AS size,
  ARRAY(item) AS itemset,
  COUNT(*) AS support
FROM tx
GROUP BY
  item
HAVING
  COUNT(*) >= $minsup;
