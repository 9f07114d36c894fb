-- eval_generalization (sql/evaluate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_generalization;

CREATE TABLE eval_generalization
USING PARQUET AS
WITH released AS (
  SELECT DISTINCT
    tid,
    node
  FROM release
)
SELECT
  t.tid,
  t.item,
  MIN(c.distance) AS levels_up,
  MIN(n.ncp) AS ncp
FROM tx AS t
LEFT JOIN released AS r
  ON r.tid = t.tid
LEFT JOIN closure AS c
  ON c.node = t.item AND c.ancestor = r.node
LEFT JOIN node AS n
  ON n.id = c.ancestor
GROUP BY
  t.tid,
  t.item;
