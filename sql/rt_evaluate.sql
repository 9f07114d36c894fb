-- Mixed queries on a (k, k^m) run (issue 41): "rows with this QI value holding these items",
-- `eval_rt_query(qid, attr, leaf, size)` and `eval_rt_query_item(qid, item)`, counted on the
-- original table and estimated from the release (uniform over the leaves a released node
-- covers, items and QI independent).

-- name: rt_eval_draw
-- $n rows drawn by a seeded hash, each with its QI leaves and its items (as hierarchy leaves).
SELECT v.rid, c.leaf AS leaves,
       (SELECT list(t.item ORDER BY t.item) FROM rt_tx AS t WHERE t.rid = v.rid) AS items
FROM rel_value AS v
JOIN rel_combo AS c ON c.cid = v.cid
ORDER BY hash(v.rid, $seed), v.rid
LIMIT $n;

-- name: rt_eval_actual
-- Every query's count on the original: rows holding its QI value and every one of its items.
CREATE OR REPLACE TABLE eval_rt_actual AS
WITH leaves AS (
    SELECT v.rid, u.attr, u.leaf
    FROM rel_value AS v
    JOIN (
        SELECT cid, unnest(leaf) AS leaf, generate_subscripts(leaf, 1) AS attr FROM rel_combo
    ) AS u ON u.cid = v.cid
), held AS (
    SELECT q.qid, l.rid
    FROM eval_rt_query AS q
    JOIN leaves AS l ON l.attr = q.attr AND l.leaf = q.leaf
    JOIN eval_rt_query_item AS i ON i.qid = q.qid
    JOIN rt_tx AS t ON t.rid = l.rid AND t.item = i.item
    GROUP BY q.qid, l.rid
    HAVING count(*) = any_value(q.size)
)
SELECT q.qid, count(h.rid) AS actual
FROM eval_rt_query AS q
LEFT JOIN held AS h ON h.qid = q.qid
GROUP BY q.qid
ORDER BY q.qid;

-- name: rt_eval_estimate
-- Every query's count estimated from the release: per row, 1 / leaves of its released QI node
-- when that covers the value, times, per query item, 1 / leaves of the deepest released node of
-- the row above it (0 when none is). Only the classes whose QI node covers the value are read.
-- Rows of a cluster with the same released nodes (a pattern) have the same estimate, so each
-- pattern is worked once and weighted by its rows (Adult + WV2: 2,698 patterns for 30,162 rows),
-- and the deepest node above an item is found once per pattern, not once per query.
CREATE OR REPLACE TABLE eval_rt_estimate AS
WITH classes AS (
    SELECT q.qid, cc.cluster, 1.0 / qn.leaf_count AS p_qi
    FROM eval_rt_query AS q
    JOIN cluster_closure AS cc ON cc.attr = q.attr
    JOIN rel_node AS qn
      ON qn.attr = q.attr AND qn.id = cc.node AND q.leaf BETWEEN qn.id AND qn.last
), query_items AS (
    SELECT DISTINCT qid, item FROM eval_rt_query_item
), row_nodes AS (
    SELECT cluster, rid, list(node ORDER BY node) AS nodes
    FROM rt_generalized
    GROUP BY cluster, rid
), patterns AS (
    SELECT row_number() OVER (ORDER BY cluster, nodes) AS pattern, cluster, nodes,
           count(*) AS rows
    FROM row_nodes
    GROUP BY cluster, nodes
), pattern_node AS (
    SELECT pattern, unnest(nodes) AS node FROM patterns
), deepest AS (
    SELECT p.pattern, i.item, max(p.node) AS node
    FROM (SELECT DISTINCT item FROM query_items) AS i
    JOIN rt_node AS n ON i.item BETWEEN n.id AND n.last
    JOIN pattern_node AS p ON p.node = n.id
    GROUP BY p.pattern, i.item
), item_factor AS (
    SELECT d.pattern, p.cluster, d.item, ln(1.0 / n.leaf_count) AS ln_p
    FROM deepest AS d
    JOIN rt_node AS n ON n.id = d.node
    JOIN patterns AS p ON p.pattern = d.pattern
), per_pattern AS (
    SELECT i.qid, f.pattern, count(*) AS covered, sum(f.ln_p) AS ln_p
    FROM classes AS c
    JOIN query_items AS i ON i.qid = c.qid
    JOIN item_factor AS f ON f.cluster = c.cluster AND f.item = i.item
    GROUP BY i.qid, f.pattern
), per_class AS (
    SELECT r.qid, p.cluster, sum(p.rows * exp(r.ln_p)) AS held
    FROM per_pattern AS r
    JOIN eval_rt_query AS q ON q.qid = r.qid AND r.covered = q.size
    JOIN patterns AS p ON p.pattern = r.pattern
    GROUP BY r.qid, p.cluster
)
SELECT q.qid, coalesce(sum(c.p_qi * h.held), 0.0) AS estimate
FROM eval_rt_query AS q
LEFT JOIN per_class AS h ON h.qid = q.qid
LEFT JOIN classes AS c ON c.qid = h.qid AND c.cluster = h.cluster
GROUP BY q.qid
ORDER BY q.qid;

-- name: rt_eval_errors
-- Every query's true and estimated counts and relative error |estimate - actual| / actual.
SELECT q.qid, q.attr, q.size, a.actual, e.estimate,
       abs(e.estimate - a.actual) / a.actual AS relative_error
FROM eval_rt_query AS q
JOIN eval_rt_actual AS a ON a.qid = q.qid
JOIN eval_rt_estimate AS e ON e.qid = q.qid
ORDER BY q.qid;

-- name: rt_eval_row_class
-- Every row's class of the release: rows whose clusters have the same released QI labels
-- share one (a class may join clusters).
CREATE OR REPLACE TABLE eval_rt_row_class AS
SELECT c.rid, dense_rank() OVER (ORDER BY l.labels) AS class
FROM cluster AS c
JOIN cluster_labels AS l ON l.cluster = c.cluster
ORDER BY c.rid;

-- name: rt_eval_attack
-- Every target's candidates (`eval_rt_target(tid, rid, size)`, its known items in
-- `eval_rt_target_item(tid, item)`): the rows of its class of the release whose released
-- items cover every item the adversary knows (an item is covered by any released node above
-- it: the adversary need not know which node stands for it).
CREATE OR REPLACE TABLE eval_rt_attack AS
WITH mine AS (
    SELECT t.tid, t.size, c.class
    FROM eval_rt_target AS t
    JOIN eval_rt_row_class AS c ON c.rid = t.rid
), candidates AS (
    SELECT m.tid, o.rid
    FROM mine AS m
    JOIN eval_rt_row_class AS o ON o.class = m.class
    JOIN eval_rt_target_item AS i ON i.tid = m.tid
    JOIN rt_node AS n ON i.item BETWEEN n.id AND n.last
    JOIN rt_generalized AS g ON g.rid = o.rid AND g.node = n.id
    GROUP BY m.tid, o.rid
    HAVING count(DISTINCT i.item) = any_value(m.size)
)
SELECT t.tid, t.size, count(c.rid) AS candidates
FROM eval_rt_target AS t
LEFT JOIN candidates AS c ON c.tid = t.tid
GROUP BY t.tid, t.size
ORDER BY t.tid;

-- name: rt_eval_attack_read
-- The attacks' candidates, by target.
SELECT tid, size, candidates FROM eval_rt_attack ORDER BY tid;
