-- rt_eval_attack (sql/rt_evaluate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_rt_attack;

CREATE TABLE eval_rt_attack
USING PARQUET AS
WITH mine AS (
  SELECT
    t.tid,
    t.size,
    c.class
  FROM eval_rt_target AS t
  JOIN eval_rt_row_class AS c
    ON c.rid = t.rid
), candidates AS (
  SELECT
    m.tid,
    o.rid
  FROM mine AS m
  JOIN eval_rt_row_class AS o
    ON o.class = m.class
  JOIN eval_rt_target_item AS i
    ON i.tid = m.tid
  JOIN rt_node AS n
    ON i.item BETWEEN n.id AND n.last
  JOIN rt_generalized AS g
    ON g.rid = o.rid AND g.node = n.id
  GROUP BY
    m.tid,
    o.rid
  HAVING
    COUNT(DISTINCT i.item) = ANY_VALUE(m.size) IGNORE NULLS
)
SELECT
  t.tid,
  t.size,
  COUNT(c.rid) AS candidates
FROM eval_rt_target AS t
LEFT JOIN candidates AS c
  ON c.tid = t.tid
GROUP BY
  t.tid,
  t.size
ORDER BY
  t.tid NULLS LAST;
