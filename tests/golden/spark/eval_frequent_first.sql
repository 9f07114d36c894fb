-- eval_frequent_first (sql/evaluate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_frequent_level;

CREATE TABLE eval_frequent_level
USING PARQUET AS
SELECT
  CAST(itemset[0] AS BIGINT) AS id,
  CAST(NULL AS BIGINT) AS parent,
  itemset,
  itemset[0] AS last,
  support
FROM eval_frequent
WHERE
  size = 1;
