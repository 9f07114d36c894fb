-- source_empty_transactions (sql/load.sql) as Spark SQL; $name parameters left unbound
SELECT
  tid_label
FROM source_input
WHERE
  LENGTH(COALESCE(item, ARRAY())) = 0
LIMIT 5;
