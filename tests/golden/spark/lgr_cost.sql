-- lgr_cost (sql/lgr.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS lgr_cost;

CREATE TABLE lgr_cost
USING PARQUET AS
SELECT
  t.tid,
  ANY_VALUE(o.pid) IGNORE NULLS AS pid,
  SUM(CASE WHEN n.is_leaf THEN 0 ELSE n.leaf_count END) AS cost_units
FROM tx AS t
JOIN partition_of AS o
  ON o.tid = t.tid
JOIN partition_cut AS c
  ON c.pid = o.pid
JOIN node AS n
  ON n.id = c.node AND t.item BETWEEN n.id AND n.last
GROUP BY
  t.tid
HAVING
  SUM(CASE WHEN n.is_leaf THEN 0 ELSE n.leaf_count END) > 0;
