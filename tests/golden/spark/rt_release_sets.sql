-- rt_release_sets (sql/rt.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS rt_release_sets;

CREATE TABLE rt_release_sets
USING PARQUET AS
SELECT
  g.rid,
  COLLECT_LIST(n.label) AS labels
FROM rt_generalized AS g
JOIN rt_node AS n
  ON n.id = g.node
GROUP BY
  g.rid
ORDER BY
  g.rid NULLS LAST;
