-- make_line_tx_raw (sql/encode.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS tx_raw;

CREATE TABLE tx_raw
USING PARQUET AS
SELECT
  tid_label AS tid,
  label
FROM source_distinct;
