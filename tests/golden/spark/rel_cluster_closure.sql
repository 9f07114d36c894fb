-- rel_cluster_closure (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS cluster_closure;

CREATE TABLE cluster_closure
USING PARQUET AS
WITH leaves AS (
  SELECT
    cid,
    EXPLODE(leaf) AS leaf,
    GENERATE_SUBSCRIPTS(leaf, 1) AS attr
  FROM rel_combo
), spans AS (
  SELECT
    cl.cluster,
    l.attr,
    MIN(l.leaf) AS lo,
    MAX(l.leaf) AS hi,
    COUNT(*) AS size
  FROM cluster AS cl
  JOIN rel_value AS v
    ON v.rid = cl.rid
  JOIN leaves AS l
    ON l.cid = v.cid
  GROUP BY
    cl.cluster,
    l.attr
)
SELECT
  s.cluster,
  s.attr,
  s.size,
  MAX_BY(n.id, n.depth) AS node
FROM spans AS s
JOIN rel_node AS n
  ON n.attr = s.attr AND n.id <= s.lo AND n.last >= s.hi
GROUP BY
  s.cluster,
  s.attr,
  s.size
ORDER BY
  s.cluster NULLS LAST,
  s.attr NULLS LAST;
