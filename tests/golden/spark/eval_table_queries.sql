-- eval_table_queries (sql/evaluate_table.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_queries;

CREATE TABLE eval_queries
USING PARQUET AS
WITH predicates AS (
  SELECT
    p.dims,
    p.qid,
    p.attr,
    p.node,
    n.id AS lo,
    n.last AS hi,
    n.leaf_count
  FROM eval_table_predicates AS p
  JOIN rel_node AS n
    ON n.attr = p.attr AND n.id = p.node
), combo_attrs AS (
  SELECT
    cid,
    weight,
    EXPLODE(path) AS path,
    GENERATE_SUBSCRIPTS(path, 1) AS attr
  FROM rel_combo
), combo_nodes AS (
  SELECT
    cid,
    weight,
    attr,
    EXPLODE(path) AS node
  FROM combo_attrs
), reach AS (
  SELECT
    c.attr,
    c.node,
    COUNT(*) AS combos
  FROM combo_nodes AS c
  SEMI JOIN predicates AS p
    ON p.attr = c.attr AND p.node = c.node
  GROUP BY
    c.attr,
    c.node
), ranked AS (
  SELECT
    p.dims,
    p.qid,
    p.attr,
    p.node,
    ROW_NUMBER() OVER (PARTITION BY p.dims, p.qid ORDER BY r.combos NULLS LAST, p.attr NULLS LAST) AS pos
  FROM predicates AS p
  JOIN reach AS r
    ON r.attr = p.attr AND r.node = p.node
), driver AS (
  SELECT
    r.dims,
    r.qid,
    c.cid,
    c.weight
  FROM ranked AS r
  JOIN combo_nodes AS c
    ON c.attr = r.attr AND c.node = r.node
  WHERE
    r.pos = 1
), lookups AS MATERIALIZED (
  SELECT
    d.dims,
    d.qid,
    d.cid,
    d.weight,
    r.attr,
    r.node
  FROM driver AS d
  JOIN ranked AS r
    ON r.dims = d.dims AND r.qid = d.qid AND r.pos > 1
), matched AS (
  SELECT
    l.dims,
    l.qid,
    l.cid,
    ANY_VALUE(l.weight) IGNORE NULLS AS weight
  FROM lookups AS l
  JOIN combo_nodes AS c
    ON c.cid = l.cid AND c.attr = l.attr AND c.node = l.node
  GROUP BY
    l.dims,
    l.qid,
    l.cid
  HAVING
    COUNT(*) = ANY_VALUE(l.dims) IGNORE NULLS - 1
), actual AS (
  SELECT
    dims,
    qid,
    SUM(weight) AS actual
  FROM (
    SELECT
      *
    FROM driver
    WHERE
      dims = 1
    UNION ALL
    SELECT
      *
    FROM matched
  )
  GROUP BY
    dims,
    qid
), overlapping AS (
  SELECT
    p.dims,
    p.qid,
    k.cluster,
    ANY_VALUE(k.size) IGNORE NULLS AS size,
    PRODUCT(
      CASE WHEN p.lo >= n.id AND p.hi <= n.last THEN p.leaf_count ELSE n.leaf_count END / n.leaf_count
    ) AS share
  FROM predicates AS p
  JOIN cluster_closure AS k
    ON k.attr = p.attr
  JOIN rel_node AS n
    ON n.attr = k.attr AND n.id = k.node
  WHERE
    n.id <= p.hi AND p.lo <= n.last
  GROUP BY
    p.dims,
    p.qid,
    k.cluster
  HAVING
    COUNT(*) = ANY_VALUE(p.dims) IGNORE NULLS
), estimate AS (
  SELECT
    dims,
    qid,
    SUM(size * share) AS estimate
  FROM overlapping
  GROUP BY
    dims,
    qid
), queries AS (
  SELECT
    dims,
    qid,
    COLLECT_LIST(node) AS itemset
  FROM predicates
  GROUP BY
    dims,
    qid
)
SELECT
  'table' AS workload,
  q.dims AS size,
  q.qid,
  q.itemset,
  a.actual,
  COALESCE(e.estimate, 0) AS estimate,
  ABS(a.actual - COALESCE(e.estimate, 0)) / a.actual AS re
FROM queries AS q
JOIN actual AS a
  USING (dims, qid)
LEFT JOIN estimate AS e
  USING (dims, qid)
ORDER BY
  size NULLS LAST,
  qid NULLS LAST;
