-- lgr_fit_tail_steps (sql/lgr.sql) as Spark SQL; $name parameters left unbound
SELECT
  s.item,
  s.node,
  s.child,
  s.rank,
  s.bit
FROM partition_expand_step AS s
SEMI JOIN (
  SELECT
    t.item
  FROM tx AS t
  SEMI JOIN lgr_fit_frontier AS f
    ON f.tid = t.tid
) AS i
  ON i.item = s.item;
