-- rt_released_nodes (sql/rt.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS rt_released_nodes;

CREATE TABLE rt_released_nodes
USING PARQUET AS
SELECT
  c.class,
  r.rid,
  n.id AS node
FROM rt_released_labels AS r
JOIN rt_node AS n
  ON n.label = r.label
JOIN rt_class AS c
  ON c.rid = r.rid
ORDER BY
  c.class NULLS LAST,
  r.rid NULLS LAST,
  node NULLS LAST;
