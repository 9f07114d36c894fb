-- rt_release_set_text (sql/rt.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS rt_released_labels;

CREATE TABLE rt_released_labels
USING PARQUET AS
SELECT DISTINCT
  rid,
  label
FROM (
  SELECT
    rid,
    EXPLODE(SPLIT(items, CONCAT('\\Q', $sep, '\\E'))) AS label
  FROM rt_release_column
)
ORDER BY
  rid NULLS LAST,
  label NULLS LAST;
