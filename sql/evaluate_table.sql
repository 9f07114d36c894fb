-- Utility of a table release: COUNT queries with equality or range predicates over 1-3
-- quasi-identifiers (the workload of the Mondrian and ARX evaluations), answered from the
-- released classes by spreading each class uniformly over the leaves of its released values.
-- A predicate is a taxonomy node of one attribute: equality for a leaf, a range (the leaves
-- under it) otherwise. Seeded by hash(..., $seed) like sql/evaluate.sql.

-- name: eval_table_predicates
-- For each number of constrained attributes in $dims, $n distinct queries, each drawn from a
-- random row: that many of its attributes at random, each with a random node on its value's
-- path below the root (the value itself when the path is only root and leaf).
CREATE OR REPLACE TABLE eval_table_predicates AS
WITH dims AS (
    SELECT unnest($dims::INTEGER[]) AS dims
), rows AS (
    SELECT v.rid, c.path FROM rel_value AS v JOIN rel_combo AS c ON c.cid = v.cid
), chosen AS (
    SELECT d.dims, r.rid, a.attr, r.path[a.attr] AS path,
           row_number() OVER (PARTITION BY d.dims, r.rid
                              ORDER BY hash(r.rid, a.attr, d.dims, $seed), a.attr) AS pos
    FROM dims AS d
    CROSS JOIN rel_attr AS a
    CROSS JOIN rows AS r
    WHERE d.dims <= (SELECT count(*) FROM rel_attr)
), predicates AS (
    SELECT dims, rid, attr,
           CASE WHEN len(path) = 1 THEN path[1]
                ELSE path[2 + (hash(rid, attr, dims, $seed, 'node') % (len(path) - 1))::INTEGER]
           END AS node
    FROM chosen
    WHERE pos <= dims
), queries AS (
    SELECT dims, rid, list(attr ORDER BY attr) AS attrs, list(node ORDER BY attr) AS nodes
    FROM predicates
    GROUP BY dims, rid
), picked AS (
    SELECT dims, attrs, nodes,
           row_number() OVER (PARTITION BY dims ORDER BY min(hash(rid, dims, $seed)), attrs, nodes)
               AS qid
    FROM queries
    GROUP BY dims, attrs, nodes
    QUALIFY qid <= $n
)
SELECT dims, qid, unnest(attrs) AS attr, unnest(nodes) AS node
FROM picked;

-- name: eval_table_queries
-- Every query's actual count (source rows whose value lies under each predicate node: the
-- rows of its predicate matching the fewest value combinations, looked up for the others) and
-- its estimate: per released class, its size times the product over predicates of the share of
-- the released node's leaves that lie under the predicate node. Kept as `eval_queries`
-- (workload 'table', `itemset` the predicate nodes in attribute order).
CREATE OR REPLACE TABLE eval_queries AS
WITH predicates AS (
    SELECT p.dims, p.qid, p.attr, p.node, n.id AS lo, n.last AS hi, n.leaf_count
    FROM eval_table_predicates AS p
    JOIN rel_node AS n ON n.attr = p.attr AND n.id = p.node
), combo_attrs AS (
    SELECT cid, weight, unnest(path) AS path, generate_subscripts(path, 1) AS attr FROM rel_combo
), combo_nodes AS (
    SELECT cid, weight, attr, unnest(path) AS node FROM combo_attrs
), reach AS (
    SELECT c.attr, c.node, count(*) AS combos
    FROM combo_nodes AS c
    SEMI JOIN predicates AS p ON p.attr = c.attr AND p.node = c.node
    GROUP BY c.attr, c.node
), ranked AS (
    SELECT p.dims, p.qid, p.attr, p.node,
           row_number() OVER (PARTITION BY p.dims, p.qid ORDER BY r.combos, p.attr) AS pos
    FROM predicates AS p
    JOIN reach AS r ON r.attr = p.attr AND r.node = p.node
), driver AS (
    SELECT r.dims, r.qid, c.cid, c.weight
    FROM ranked AS r
    JOIN combo_nodes AS c ON c.attr = r.attr AND c.node = r.node
    WHERE r.pos = 1
), lookups AS MATERIALIZED (
    SELECT d.dims, d.qid, d.cid, d.weight, r.attr, r.node
    FROM driver AS d
    JOIN ranked AS r ON r.dims = d.dims AND r.qid = d.qid AND r.pos > 1
), matched AS (
    SELECT l.dims, l.qid, l.cid, any_value(l.weight) AS weight
    FROM lookups AS l
    JOIN combo_nodes AS c ON c.cid = l.cid AND c.attr = l.attr AND c.node = l.node
    GROUP BY l.dims, l.qid, l.cid
    HAVING count(*) = any_value(l.dims) - 1
), actual AS (
    SELECT dims, qid, sum(weight) AS actual
    FROM (SELECT * FROM driver WHERE dims = 1 UNION ALL SELECT * FROM matched)
    GROUP BY dims, qid
), overlapping AS (
    SELECT p.dims, p.qid, k.cluster, any_value(k.size) AS size,
           product(CASE WHEN p.lo >= n.id AND p.hi <= n.last THEN p.leaf_count
                        ELSE n.leaf_count END / n.leaf_count) AS share
    FROM predicates AS p
    JOIN cluster_closure AS k ON k.attr = p.attr
    JOIN rel_node AS n ON n.attr = k.attr AND n.id = k.node
    WHERE n.id <= p.hi AND p.lo <= n.last
    GROUP BY p.dims, p.qid, k.cluster
    HAVING count(*) = any_value(p.dims)
), estimate AS (
    SELECT dims, qid, sum(size * share) AS estimate FROM overlapping GROUP BY dims, qid
), queries AS (
    SELECT dims, qid, list(node ORDER BY attr) AS itemset FROM predicates GROUP BY dims, qid
)
SELECT 'table' AS workload, q.dims AS size, q.qid, q.itemset, a.actual,
       coalesce(e.estimate, 0) AS estimate,
       abs(a.actual - coalesce(e.estimate, 0)) / a.actual AS re
FROM queries AS q
JOIN actual AS a USING (dims, qid)
LEFT JOIN estimate AS e USING (dims, qid)
ORDER BY size, qid;
