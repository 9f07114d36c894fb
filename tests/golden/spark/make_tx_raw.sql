-- make_tx_raw (sql/encode.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS tx_raw;

CREATE TABLE tx_raw
USING PARQUET AS
SELECT
  t.tid,
  s.label
FROM source_distinct AS s
JOIN tids AS t
  ON t.label = s.tid_label;
