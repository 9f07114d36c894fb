-- rel_improve_evict_combos (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS improve_combos;

CREATE TABLE improve_combos
USING PARQUET AS
SELECT DISTINCT
  v.cid
FROM improve_evict_choice AS e
JOIN improve_branch AS b
  ON b.cluster = e.cluster AND b.i = e.pick.i AND b.child <> e.pick.child
JOIN rel_value AS v
  ON v.rid = b.rid;
