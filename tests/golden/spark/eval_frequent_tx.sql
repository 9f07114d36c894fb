-- eval_frequent_tx (sql/evaluate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_frequent_tx;

CREATE TABLE eval_frequent_tx
USING PARQUET AS
SELECT
  t.tid,
  t.item
FROM tx AS t
SEMI JOIN eval_frequent_level AS l
  ON l.id = t.item;
