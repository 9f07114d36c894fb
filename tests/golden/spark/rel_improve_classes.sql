-- rel_improve_classes (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS improve_class;

CREATE TABLE improve_class
USING PARQUET AS
WITH spans AS (
  SELECT
    w.cluster,
    l.attr,
    MIN(l.leaf) AS lo,
    MAX(l.leaf) AS hi,
    COUNT(*) AS size
  FROM work AS w
  JOIN improve_leaf AS l
    USING (rid)
  GROUP BY
    w.cluster,
    l.attr
), closure AS (
  SELECT
    s.cluster,
    s.attr,
    s.size,
    MAX(a.node) AS node,
    MIN(a.last) AS last,
    MIN(a.cost) AS cost
  FROM spans AS s
  JOIN rel_ancestor AS a
    ON a.attr = s.attr AND a.leaf = s.lo AND a.last >= s.hi
  GROUP BY
    s.cluster,
    s.attr,
    s.size
)
SELECT
  cluster,
  ANY_VALUE(size) IGNORE NULLS AS size,
  COLLECT_LIST(node) AS node,
  COLLECT_LIST(last) AS last,
  AVG(cost ORDER BY attr NULLS LAST) AS cost
FROM closure
GROUP BY
  cluster;
