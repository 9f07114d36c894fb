-- rt_cut_start (sql/rt.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS rt_cut;

CREATE TABLE rt_cut
USING PARQUET AS
SELECT DISTINCT
  c.cluster,
  t.item,
  t.item AS node
FROM rt_tx AS t
JOIN cluster AS c
  ON c.rid = t.rid
ORDER BY
  c.cluster NULLS LAST,
  t.item NULLS LAST;
