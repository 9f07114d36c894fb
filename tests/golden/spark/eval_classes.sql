-- eval_classes (sql/evaluate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_classes;

CREATE TABLE eval_classes
USING PARQUET AS
SELECT
  ROW_NUMBER() OVER (ORDER BY itemset NULLS LAST) AS cls,
  itemset AS nodes,
  support
FROM release_classes;
