-- km_single_supports (sql/km_anonymity.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS itemset_supports;

CREATE TABLE itemset_supports
USING PARQUET AS
SELECT
  ARRAY(node) AS itemset,
  COUNT(*) AS support,
  TRUE AS exact
FROM expanded
GROUP BY
  node
ORDER BY
  node NULLS LAST;
