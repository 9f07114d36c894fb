-- dv_term_support (sql/verify_disassociation.sql) as Spark SQL; $name parameters left unbound
INSERT INTO dv_violations
SELECT
  'term-chunk term held by k or more records',
  cluster,
  CAST(item AS STRING)
FROM dv_record_places
WHERE
  kind = 'term'
GROUP BY
  cluster,
  item
HAVING
  COUNT(*) >= $k;
