-- km_open_violations (sql/km_anonymity.sql) as Spark SQL; $name parameters left unbound
SELECT
  b.pos,
  b.itemset,
  b.image
FROM walk_batch AS b
LEFT JOIN itemset_supports AS s
  ON s.itemset = b.image
WHERE
  NOT b.moved OR s.support < $k
ORDER BY
  b.pos NULLS LAST;
