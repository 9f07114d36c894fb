-- rt_make_tx (sql/rt.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS rt_tx;

CREATE TABLE rt_tx
USING PARQUET AS
SELECT
  l.rid,
  n.id AS item
FROM rt_labels AS l
JOIN rt_node AS n
  ON n.label = l.label
ORDER BY
  l.rid NULLS LAST,
  item NULLS LAST;
