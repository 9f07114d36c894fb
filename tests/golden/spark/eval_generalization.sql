-- eval_generalization (sql/evaluate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_generalization;

CREATE TABLE eval_generalization
USING PARQUET AS
SELECT
  t.tid,
  t.item,
  MIN(i.depth - c.depth) AS levels_up,
  MIN(c.ncp) AS ncp
FROM tx AS t
JOIN node AS i
  ON i.id = t.item
LEFT JOIN (
  SELECT
    r.tid,
    n.id,
    n.last,
    n.depth,
    n.ncp
  FROM release AS r
  JOIN node AS n
    ON n.id = r.node
) AS c
  ON c.tid = t.tid AND t.item BETWEEN c.id AND c.last
GROUP BY
  t.tid,
  t.item;
