-- rt_item_labels (sql/rt.sql) as Spark SQL; $name parameters left unbound
SELECT DISTINCT
  label
FROM rt_labels
ORDER BY
  label NULLS LAST;
