-- lgr_fit_candidate (sql/lgr.sql) as Spark SQL; $name parameters left unbound
WITH pair AS MATERIALIZED (
  SELECT
    f.tid,
    f.pid
  FROM lgr_fit AS f
  SEMI JOIN lgr_class AS l
    ON l.pid = f.pid
  ANTI JOIN lgr_cost AS w
    ON w.tid = f.tid AND w.pid = f.pid
), reach AS MATERIALIZED (
  SELECT
    p.tid,
    p.pid,
    a.ancestor AS node
  FROM pair AS p
  JOIN tx AS t
    ON t.tid = p.tid
  JOIN closure AS a
    ON a.node = t.item
), cost AS (
  SELECT
    r.tid,
    r.pid,
    SUM(CASE WHEN n.is_leaf THEN 0 ELSE n.leaf_count END) AS cost_units
  FROM reach AS r
  JOIN partition_cut AS c
    ON c.pid = r.pid AND c.node = r.node
  JOIN node AS n
    ON n.id = c.node
  GROUP BY
    r.tid,
    r.pid
)
INSERT INTO lgr_candidate
SELECT
  c.tid,
  l.itemset,
  c.cost_units
FROM cost AS c
JOIN lgr_cost AS w
  ON w.tid = c.tid AND c.cost_units < w.cost_units
JOIN lgr_class AS l
  ON l.pid = c.pid;
