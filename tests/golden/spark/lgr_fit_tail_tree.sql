-- lgr_fit_tail_tree (sql/lgr.sql) as Spark SQL; $name parameters left unbound
WITH RECURSIVE below AS (
  SELECT
    t.pid,
    t.parent,
    t.expanded,
    t.mask,
    t.wide
  FROM partition_tree AS t
  SEMI JOIN lgr_fit_frontier AS f
    ON f.pid = t.parent
  UNION ALL
  SELECT
    t.pid,
    t.parent,
    t.expanded,
    t.mask,
    t.wide
  FROM partition_tree AS t
  JOIN below AS b
    ON t.parent = b.pid
)
SELECT
  pid,
  parent,
  expanded,
  mask,
  wide
FROM below;
