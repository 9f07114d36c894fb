-- rt_generalized (sql/rt.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS rt_generalized;

CREATE TABLE rt_generalized
USING PARQUET AS
SELECT DISTINCT
  c.cluster,
  t.rid,
  u.node
FROM rt_tx AS t
JOIN cluster AS c
  ON c.rid = t.rid
JOIN rt_cut AS u
  ON u.cluster = c.cluster AND u.item = t.item
ORDER BY
  c.cluster NULLS LAST,
  t.rid NULLS LAST,
  u.node NULLS LAST;
