-- rel_improve_shrink (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS improve_shrink;

CREATE TABLE improve_shrink
USING PARQUET AS
WITH kept AS (
  SELECT
    cluster,
    i,
    child,
    COUNT(*) AS n
  FROM improve_branch
  GROUP BY
    cluster,
    i,
    child
  HAVING
    COUNT(*) >= $k AND COUNT(*) < ANY_VALUE(size) IGNORE NULLS
), spans AS (
  SELECT
    k.cluster,
    k.i,
    k.child,
    k.n,
    l.attr,
    MIN(l.leaf) AS lo,
    MAX(l.leaf) AS hi
  FROM kept AS k
  JOIN improve_branch AS b
    USING (cluster, i, child)
  JOIN improve_leaf AS l
    ON l.rid = b.rid
  GROUP BY
    k.cluster,
    k.i,
    k.child,
    k.n,
    l.attr
), closure AS (
  SELECT
    s.cluster,
    s.i,
    s.child,
    s.n,
    s.attr,
    MAX(a.node) AS node,
    MIN(a.last) AS last,
    MIN(a.cost) AS cost
  FROM spans AS s
  JOIN rel_ancestor AS a
    ON a.attr = s.attr AND a.leaf = s.lo AND a.last >= s.hi
  GROUP BY
    s.cluster,
    s.i,
    s.child,
    s.n,
    s.attr
)
SELECT
  cluster,
  i,
  child,
  n,
  COLLECT_LIST(node) AS node,
  COLLECT_LIST(last) AS last,
  AVG(cost ORDER BY attr NULLS LAST) AS cost
FROM closure
GROUP BY
  cluster,
  i,
  child,
  n;
