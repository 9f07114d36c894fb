-- km_expanded_itemsets (sql/km_anonymity.sql) as Spark SQL; $name parameters left unbound
SELECT
  *
  EXCEPT (pos, support)
FROM violations_expanded
ORDER BY
  pos NULLS LAST;
