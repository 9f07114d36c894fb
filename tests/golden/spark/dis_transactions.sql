-- dis_transactions (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS dis_tx;

CREATE TABLE dis_tx
USING PARQUET AS
SELECT
  r.tid,
  i.item
FROM tx_raw AS r
JOIN dis_item AS i
  ON i.label = r.label;
