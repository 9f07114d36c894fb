-- empty_lines (sql/load.sql) as Spark SQL; $name parameters left unbound
SELECT
  l.lineno + 1 AS line
FROM source_lines AS l
ANTI JOIN source_pairs AS t
  ON t.tid_label = l.lineno
WHERE
  NOT (
    l.lineno = (
      SELECT
        MAX(lineno)
      FROM source_lines
    ) AND TRIM(l.line) = ''
  )
ORDER BY
  l.lineno NULLS LAST
LIMIT 5;
