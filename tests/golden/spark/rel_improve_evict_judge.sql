-- rel_improve_evict_judge (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS improve_evict_judged;

CREATE TABLE improve_evict_judged
USING PARQUET AS
WITH leaving AS (
  SELECT
    b.rid,
    b.cluster,
    b.cost,
    b.child = e.pick.child AS stays,
    s.n,
    s.cost AS kept_cost,
    o.target,
    o.cost AS dest_cost
  FROM improve_evict_choice AS e
  JOIN improve_branch AS b
    ON b.cluster = e.cluster AND b.i = e.pick.i
  JOIN improve_shrink AS s
    ON s.cluster = e.cluster AND s.i = e.pick.i AND s.child = e.pick.child
  JOIN rel_value AS v
    ON v.rid = b.rid
  LEFT JOIN improve_cover_rest AS o
    ON o.cid = v.cid
)
SELECT
  rid,
  cluster,
  stays,
  target,
  ANY_VALUE(n * (
    cost - kept_cost
  )) IGNORE NULLS OVER per_class + COALESCE(SUM(CASE WHEN NOT stays THEN cost - dest_cost END) OVER per_class, 0) AS gain,
  COUNT(CASE WHEN NOT stays AND target IS NULL THEN 1 END) OVER per_class AS homeless
FROM leaving
WINDOW per_class AS (PARTITION BY cluster);
