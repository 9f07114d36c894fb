-- line_coverage (sql/load.sql) as Spark SQL; $name parameters left unbound
SELECT
  (
    SELECT
      COUNT(*)
    FROM source_lines
  ) AS lines,
  (
    SELECT
      COUNT(DISTINCT tid_label)
    FROM source_pairs
  ) AS lines_with_items,
  (
    SELECT
      TRIM(line) = ''
    FROM source_lines
    ORDER BY
      lineno DESC
    LIMIT 1
  ) AS last_blank;
