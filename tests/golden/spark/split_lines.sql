-- split_lines (sql/load.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS source_lines;

CREATE TABLE source_lines
USING PARQUET AS
WITH f AS (
  SELECT
    SPLIT($content, CONCAT('\\Q', CHR(  10), '\\E')) AS lines
)
SELECT
  lineno,
  REPLACE(REPLACE(REPLACE(line, CHR(  9), ' '), CHR(  12), ' '), CHR(  13), ' ') AS line
FROM (
  SELECT
    GENERATE_SUBSCRIPTS(lines, 1) - 1 AS lineno,
    EXPLODE(lines) AS line
  FROM f
);
