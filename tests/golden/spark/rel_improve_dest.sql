-- rel_improve_dest (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS improve_dest;

CREATE TABLE improve_dest
USING PARQUET AS
SELECT
  c.cluster,
  c.size,
  COALESCE(s.node, c.node) AS node,
  COALESCE(s.last, c.last) AS last,
  COALESCE(s.cost, c.cost) AS cost
FROM improve_class AS c
LEFT JOIN improve_evict_choice AS e
  USING (cluster)
LEFT JOIN improve_shrink AS s
  ON s.cluster = e.cluster AND s.i = e.pick.i AND s.child = e.pick.child;
