-- source_distinct (sql/encode.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS source_distinct;

CREATE TABLE source_distinct
USING PARQUET AS
SELECT
  tid_label,
  label,
  COUNT(*) AS n
FROM source_pairs
GROUP BY
  tid_label,
  label;
