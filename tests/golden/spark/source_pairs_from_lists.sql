-- source_pairs_from_lists (sql/load.sql, its :spark variant) as Spark SQL; $name parameters left unbound
CREATE OR REPLACE TEMPORARY VIEW source_pairs AS
SELECT
  tid_label,
  EXPLODE(CAST(item AS ARRAY<STRING>)) AS label
FROM source_input;
