-- dis_suppressed_items (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS suppressed_items;

CREATE TABLE suppressed_items
USING PARQUET AS
SELECT
  x.tid,
  i.label AS item
FROM dis_suppressed AS x
JOIN dis_item AS i
  ON i.item = x.item
ORDER BY
  x.tid NULLS LAST,
  i.label NULLS LAST;
