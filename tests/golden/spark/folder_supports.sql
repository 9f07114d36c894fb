-- folder_supports (sql/release_folder.sql) as Spark SQL; $name parameters left unbound
WITH data AS (
  SELECT
    l.id AS item,
    COUNT(*) AS support
  FROM tx_raw AS t
  JOIN dv_label AS l
    ON l.label = t.label
  GROUP BY
    l.id
), released AS (
  SELECT
    item,
    COUNT(*) AS rows
  FROM dv_rows
  WHERE
    NOT item IS NULL
  GROUP BY
    item
), terms AS (
  SELECT
    l.id AS item,
    COUNT(*) AS terms
  FROM term_chunks AS t
  JOIN dv_label AS l
    ON l.label = t.item
  GROUP BY
    l.id
), figures AS (
  SELECT
    d.item,
    d.support,
    COALESCE(r.rows, 0) AS rows,
    COALESCE(t.terms, 0) AS terms
  FROM data AS d
  LEFT JOIN released AS r
    ON r.item = d.item
  LEFT JOIN terms AS t
    ON t.item = d.item
), labelled AS (
  SELECT
    f.*,
    l.label,
    GREATEST(f.support - f.rows - f.terms * (
      $k - 1
    ), 0) AS excess
  FROM figures AS f
  JOIN dv_label AS l
    ON l.id = f.item
)
INSERT INTO dv_violations
SELECT
  'item released more often than the data holds it',
  NULL,
  label
FROM labelled
WHERE
  rows + terms > support
UNION ALL
SELECT
  'item held more often than the release allows',
  NULL,
  label
FROM labelled
WHERE
  excess > 0 AND $suppressed = 0
UNION ALL
SELECT
  'occurrences unaccounted for beyond those suppressed',
  NULL,
  CAST(SUM(excess) AS STRING) || ' > ' || CAST($suppressed AS STRING)
FROM labelled
HAVING
  $suppressed > 0 AND SUM(excess) > $suppressed
UNION ALL
SELECT
  'more occurrences suppressed than the release leaves',
  NULL,
  CAST($suppressed AS STRING) || ' > ' || CAST(SUM(support - rows - terms) AS STRING)
FROM labelled
HAVING
  $suppressed > SUM(support - rows - terms);
