-- read_lines (sql/load.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS source_lines;

CREATE TABLE source_lines
USING PARQUET AS
WITH f AS (
  SELECT
    SPLIT(
      CASE WHEN STARTSWITH(content, CHR(  65279)) THEN content[2:] ELSE content END,
      CONCAT('\\Q', CHR(  10), '\\E')
    ) AS lines
  FROM READ_TEXT($path)
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
