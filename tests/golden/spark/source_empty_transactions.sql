-- source_empty_transactions (sql/load.sql, its :spark variant) as Spark SQL; $name parameters left unbound
SELECT
  tid_label
FROM source_input
WHERE
  SIZE(COALESCE(item, ARRAY())) = 0
LIMIT 5;
