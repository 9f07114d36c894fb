-- rel_closed_cost (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS closed_cost;

CREATE TABLE closed_cost
USING PARQUET AS
WITH per_attribute AS (
  SELECT
    rec,
    EXPLODE(node) AS id,
    GENERATE_SUBSCRIPTS(node, 1) AS attr
  FROM closed_record
)
SELECT
  c.rec,
  c.node,
  c.support,
  c.level,
  AVG(n.cost ORDER BY p.attr NULLS LAST) AS cost
FROM closed_record AS c
JOIN per_attribute AS p
  ON p.rec = c.rec
JOIN rel_node AS n
  ON n.attr = p.attr AND n.id = p.id
GROUP BY
  c.rec,
  c.node,
  c.support,
  c.level
ORDER BY
  c.rec NULLS LAST;
