-- rt_labels_from_list (sql/rt.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS rt_labels;

CREATE TABLE rt_labels
USING PARQUET AS
SELECT DISTINCT
  rid,
  CAST(label AS STRING) AS label
FROM (
  SELECT
    rid,
    EXPLODE(items) AS label
  FROM rt_set
)
ORDER BY
  rid NULLS LAST,
  label NULLS LAST;
