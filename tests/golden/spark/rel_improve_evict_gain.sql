-- rel_improve_evict_gain (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS improve_evict_gain;

CREATE TABLE improve_evict_gain
USING PARQUET AS
WITH dest AS (
  SELECT
    w.rid,
    w.cluster,
    FILTER(o.best, t -> t.target <> w.cluster)[0] AS dest
  FROM work AS w
  JOIN rel_value AS v
    USING (rid)
  JOIN improve_cover AS o
    USING (cid)
), per_row AS (
  SELECT
    b.cluster,
    b.i,
    b.child,
    b.size,
    b.cost,
    d.dest.cost AS dest_cost
  FROM improve_branch AS b
  LEFT JOIN dest AS d
    USING (rid)
), whole AS (
  SELECT
    cluster,
    i,
    COUNT(dest_cost) AS placed,
    SUM(cost - dest_cost) AS saved
  FROM per_row
  GROUP BY
    cluster,
    i
), part AS (
  SELECT
    cluster,
    i,
    child,
    ANY_VALUE(size) IGNORE NULLS AS size,
    ANY_VALUE(cost) IGNORE NULLS AS cost,
    COUNT(dest_cost) AS placed,
    COALESCE(SUM(cost - dest_cost), 0) AS saved
  FROM per_row
  GROUP BY
    cluster,
    i,
    child
)
SELECT
  s.cluster,
  s.i,
  s.child,
  s.n * (
    p.cost - s.cost
  ) + COALESCE(w.saved, 0) - p.saved AS gain,
  w.placed - p.placed = p.size - s.n AS complete
FROM improve_shrink AS s
JOIN part AS p
  USING (cluster, i, child)
JOIN whole AS w
  USING (cluster, i);
