-- rt_release_set_list (sql/rt.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS rt_released_labels;

CREATE TABLE rt_released_labels
USING PARQUET AS
SELECT DISTINCT
  rid,
  CAST(label AS STRING) AS label
FROM (
  SELECT
    rid,
    EXPLODE(items) AS label
  FROM rt_release_column
)
ORDER BY
  rid NULLS LAST,
  label NULLS LAST;
