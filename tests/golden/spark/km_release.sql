-- km_release (sql/km_anonymity.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS release;

CREATE TABLE release
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
