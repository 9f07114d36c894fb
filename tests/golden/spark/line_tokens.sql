-- line_tokens (sql/load.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS source_pairs;

CREATE TABLE source_pairs
USING PARQUET AS
SELECT
  lineno AS tid_label,
  token AS label
FROM (
  SELECT
    lineno,
    EXPLODE(SPLIT(line, CONCAT('\\Q', ' ', '\\E'))) AS token
  FROM source_lines
)
WHERE
  token <> '' AND NOT (
    $spmf AND token IN ('-1', '-2')
  );
