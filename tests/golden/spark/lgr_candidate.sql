-- lgr_candidate (sql/lgr.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS lgr_candidate;

CREATE TABLE lgr_candidate
USING PARQUET AS
WITH level_cost AS (
  SELECT
    t.tid,
    a.level,
    SUM(a.cost_units) AS cost_units
  FROM tx AS t
  SEMI JOIN lgr_cost AS w
    ON w.tid = t.tid
  JOIN lgr_ancestor_at AS a
    ON a.node = t.item AND a.level > 0
  GROUP BY
    t.tid,
    a.level
), cheaper AS (
  SELECT
    l.*
  FROM level_cost AS l
  JOIN lgr_cost AS w
    ON w.tid = l.tid AND l.cost_units < w.cost_units
), rolled AS (
  SELECT
    c.tid,
    COLLECT_LIST(DISTINCT a.ancestor) AS itemset,
    c.cost_units
  FROM cheaper AS c
  JOIN tx AS t
    ON t.tid = c.tid
  JOIN lgr_ancestor_at AS a
    ON a.node = t.item AND a.level = c.level
  GROUP BY
    c.tid,
    c.level,
    c.cost_units
)
SELECT DISTINCT
  tid,
  itemset,
  cost_units
FROM rolled;
