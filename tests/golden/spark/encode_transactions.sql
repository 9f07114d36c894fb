-- encode_transactions (sql/dataset.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS tx;

CREATE TABLE tx
USING PARQUET AS
SELECT
  r.tid,
  n.id AS item
FROM tx_raw AS r
JOIN node AS n
  ON n.label = r.label
ORDER BY
  r.tid NULLS LAST,
  item NULLS LAST;
