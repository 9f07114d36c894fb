-- km_generalized (sql/km_anonymity.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS generalized;

CREATE TABLE generalized
USING PARQUET AS
SELECT DISTINCT
  t.tid,
  c.node
FROM tx AS t
JOIN cut AS c
  ON c.item = t.item
ORDER BY
  t.tid NULLS LAST,
  c.node NULLS LAST;
