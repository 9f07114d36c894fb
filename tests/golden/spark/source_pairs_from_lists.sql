-- source_pairs_from_lists (sql/load.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS source_pairs;

CREATE TABLE source_pairs
USING PARQUET AS
SELECT
  tid_label,
  CAST(EXPLODE(item) AS STRING) AS label
FROM source_input;
