-- eval_frequent_keep (sql/evaluate.sql) as Spark SQL; $name parameters left unbound
INSERT INTO eval_frequent
SELECT
  LENGTH(itemset) AS size,
  itemset,
  support
FROM eval_frequent_level;
