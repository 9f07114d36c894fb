-- lgr_fit_tail_items (sql/lgr.sql) as Spark SQL; $name parameters left unbound
SELECT
  t.tid,
  t.item
FROM tx AS t
SEMI JOIN lgr_fit_frontier AS f
  ON f.tid = t.tid;
