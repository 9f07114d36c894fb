-- eval_frequent_first_holders (sql/evaluate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_frequent_holders;

CREATE TABLE eval_frequent_holders
USING PARQUET AS
SELECT
  CAST(item AS BIGINT) AS id,
  tid,
  item AS last
FROM eval_frequent_tx;
