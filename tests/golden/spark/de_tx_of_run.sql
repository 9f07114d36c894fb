-- de_tx_of_run (sql/evaluate_disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS tx;

CREATE TABLE tx
USING PARQUET AS
SELECT
  r.tid,
  i.item
FROM tx_raw AS r
JOIN dis_item AS i
  ON i.label = r.label;
