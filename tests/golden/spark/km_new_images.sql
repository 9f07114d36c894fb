-- km_new_images (sql/km_anonymity.sql) as Spark SQL; $name parameters left unbound
SELECT DISTINCT
  b.image
FROM walk_batch AS b
ANTI JOIN itemset_supports AS s
  ON s.itemset = b.image
WHERE
  b.moved;
