-- lgr_cost (sql/lgr.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS lgr_cost;

CREATE TABLE lgr_cost
USING PARQUET AS
SELECT
  t.tid,
  ANY_VALUE(o.pid) IGNORE NULLS AS pid,
  SUM(c.cost_units) AS cost_units
FROM tx AS t
JOIN partition_of AS o
  ON o.tid = t.tid
LEFT JOIN (
  SELECT
    c.pid,
    n.id,
    n.last,
    CASE WHEN n.is_leaf THEN 0 ELSE n.leaf_count END AS cost_units
  FROM partition_cut AS c
  JOIN node AS n
    ON n.id = c.node
) AS c
  ON c.pid = o.pid AND t.item BETWEEN c.id AND c.last
GROUP BY
  t.tid
HAVING
  SUM(c.cost_units) > 0;
