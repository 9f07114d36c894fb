-- source_check (sql/encode.sql, its :spark variant) as Spark SQL; $name parameters left unbound
SELECT
  COALESCE(
    SUM(n) FILTER(WHERE
      tid_label IS NULL OR TRIM(CAST(tid_label AS STRING)) = ''),
    0
  ) AS missing_tid,
  COALESCE(SUM(n) FILTER(WHERE
    label IS NULL OR TRIM(label) = ''), 0) AS missing_item,
  COALESCE(SUM(n), 0) AS rows,
  COALESCE(SUM(n), 0) - COUNT(*) AS duplicate_rows,
  COUNT(*) AS pairs
FROM source_distinct;
