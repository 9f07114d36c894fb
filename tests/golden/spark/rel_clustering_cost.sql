-- rel_clustering_cost (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
WITH leaves AS (
  SELECT
    t.cluster,
    u.attr,
    u.leaf
  FROM cluster_try AS t
  JOIN rel_value AS v
    USING (rid)
  JOIN (
    SELECT
      cid,
      EXPLODE(leaf) AS leaf,
      GENERATE_SUBSCRIPTS(leaf, 1) AS attr
    FROM rel_combo
  ) AS u
    USING (cid)
), spans AS (
  SELECT
    cluster,
    attr,
    MIN(leaf) AS lo,
    MAX(leaf) AS hi,
    COUNT(*) AS size
  FROM leaves
  GROUP BY
    cluster,
    attr
), closure AS (
  SELECT
    s.cluster,
    s.size,
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
  COALESCE(SUM(size * cost), 0) AS cost
FROM (
  SELECT
    cluster,
    ANY_VALUE(size) IGNORE NULLS AS size,
    AVG(cost) AS cost
  FROM closure
  GROUP BY
    cluster
);
