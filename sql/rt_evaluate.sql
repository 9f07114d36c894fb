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
-- Worked from the rows holding the query's rarest item (that item's rows in `rt_tx`), not
-- from every row with its QI value: only those rows are checked for the value, then for the
-- query's other items (a query of one item needs no second look). `row_leaves` is
-- materialized so that those rows fetch their QI leaves once, before they meet the queries
-- (DuckDB otherwise joins the leaves after spreading the rows over every query).
CREATE OR REPLACE TABLE eval_rt_actual AS
WITH item_rows AS (
    SELECT t.item, count(*) AS n
    FROM rt_tx AS t
    WHERE t.item IN (SELECT item FROM eval_rt_query_item)
    GROUP BY t.item
), ranked AS (
    SELECT i.qid, i.item,
           row_number() OVER (PARTITION BY i.qid ORDER BY coalesce(f.n, 0), i.item) AS pos
    FROM eval_rt_query_item AS i
    LEFT JOIN item_rows AS f ON f.item = i.item
), rarest AS (
    SELECT qid, item FROM ranked WHERE pos = 1
), keys AS (
    SELECT DISTINCT r.item, q.attr
    FROM rarest AS r
    JOIN eval_rt_query AS q ON q.qid = r.qid
), row_leaves AS MATERIALIZED (
    SELECT t.item, t.rid, c.leaf
    FROM rt_tx AS t
    JOIN rel_value AS v ON v.rid = t.rid
    JOIN rel_combo AS c ON c.cid = v.cid
    WHERE t.item IN (SELECT item FROM rarest)
), row_keys AS (
    SELECT k.item, k.attr, l.leaf[k.attr] AS leaf, l.rid
    FROM keys AS k
    JOIN row_leaves AS l ON l.item = k.item
), with_value AS (
    SELECT q.qid, q.size, k.rid
    FROM rarest AS r
    JOIN eval_rt_query AS q ON q.qid = r.qid
    JOIN row_keys AS k ON k.item = r.item AND k.attr = q.attr AND k.leaf = q.leaf
), held AS (
    SELECT w.qid, count(*) AS actual
    FROM with_value AS w
    WHERE w.size = 1
    GROUP BY w.qid
    UNION ALL
    SELECT qid, count(*) AS actual
    FROM (
        SELECT w.qid
        FROM with_value AS w
        JOIN ranked AS o ON o.qid = w.qid AND o.pos > 1
        JOIN rt_tx AS t ON t.rid = w.rid AND t.item = o.item
        WHERE w.size > 1
        GROUP BY w.qid, w.rid
        HAVING count(*) = any_value(w.size) - 1
    )
    GROUP BY qid
)
SELECT q.qid, coalesce(sum(h.actual), 0)::BIGINT AS actual
FROM eval_rt_query AS q
LEFT JOIN held AS h ON h.qid = q.qid
GROUP BY q.qid
ORDER BY q.qid;

-- name: rt_eval_estimate
-- Every query's count estimated from the release: per row, 1 / leaves of its released QI node
-- when that covers the value, times, per query item, 1 / leaves of the deepest released node of
-- the row above it (0 when none is). Only the classes whose QI node covers the value are read.
-- Worked without a pass over the rows per query: give each released node of a row the weight
-- w = 1 / its leaves - 1 / the leaves of the row's nearest released node above it (0 if none);
-- the weights of a row's nodes above an item sum to 1 / leaves of the deepest (they telescope),
-- so a row's product over s items is a sum over s-tuples of its nodes (one above each item) of
-- their weights' product. A query's tuples are those of its class's released nodes above its
-- items (`query_tuples`, one or two nodes per item); each cluster sums its rows once per such
-- multiset of nodes (`tuple_weight`), grown node by node along the wanted prefixes only, so a
-- row of many nodes never spells out all its multisets.
CREATE OR REPLACE TABLE eval_rt_estimate AS
WITH RECURSIVE classes AS (
    SELECT q.qid, cc.cluster, 1.0 / qn.leaf_count AS p_qi
    FROM eval_rt_query AS q
    JOIN cluster_closure AS cc ON cc.attr = q.attr
    JOIN rel_node AS qn
      ON qn.attr = q.attr AND qn.id = cc.node AND q.leaf BETWEEN qn.id AND qn.last
), query_items AS (
    SELECT qid, item, row_number() OVER (PARTITION BY qid ORDER BY item) AS pos
    FROM (SELECT DISTINCT qid, item FROM eval_rt_query_item)
), row_weight AS (
    SELECT g.cluster, g.rid, g.node,
           1.0 / n.leaf_count - coalesce(1.0 / arg_max(a.leaf_count, a.id), 0.0) AS w
    FROM rt_generalized AS g
    JOIN rt_node AS n ON n.id = g.node
    LEFT JOIN (rt_generalized AS h JOIN rt_node AS a ON a.id = h.node)
      ON h.rid = g.rid AND a.id < g.node AND g.node <= a.last
    GROUP BY g.cluster, g.rid, g.node, n.leaf_count
), released AS (
    SELECT DISTINCT cluster, node FROM rt_generalized
), item_nodes AS (
    SELECT r.cluster, i.item, r.node
    FROM (SELECT DISTINCT item FROM query_items) AS i
    JOIN rt_node AS n ON i.item BETWEEN n.id AND n.last
    JOIN released AS r ON r.node = n.id
), query_tuples AS (
    SELECT c.qid, c.cluster, c.p_qi, 1 AS pos, [x.node] AS nodes
    FROM classes AS c
    JOIN query_items AS i ON i.qid = c.qid AND i.pos = 1
    JOIN item_nodes AS x ON x.cluster = c.cluster AND x.item = i.item
    UNION ALL
    SELECT t.qid, t.cluster, t.p_qi, t.pos + 1, list_append(t.nodes, x.node)
    FROM query_tuples AS t
    JOIN query_items AS i ON i.qid = t.qid AND i.pos = t.pos + 1
    JOIN item_nodes AS x ON x.cluster = t.cluster AND x.item = i.item
), wanted AS (
    SELECT t.qid, t.cluster, t.p_qi, list_sort(t.nodes) AS nodes
    FROM query_tuples AS t
    JOIN eval_rt_query AS q ON q.qid = t.qid AND q.size = t.pos
), prefixes AS (
    SELECT DISTINCT cluster, nodes[1:k] AS prefix
    FROM (SELECT cluster, nodes, unnest(range(1, len(nodes) + 1)) AS k FROM wanted)
), prefix_ids AS (
    SELECT cluster, prefix, row_number() OVER (ORDER BY cluster, prefix) AS pid FROM prefixes
), prefix_tree AS (
    SELECT c.cluster, c.pid, p.pid AS parent, c.prefix[-1] AS node
    FROM prefix_ids AS c
    LEFT JOIN prefix_ids AS p
      ON p.cluster = c.cluster AND p.prefix = c.prefix[1:len(c.prefix) - 1]
), row_tuples AS (
    SELECT r.rid, p.pid, r.w AS weight
    FROM row_weight AS r
    JOIN prefix_tree AS p ON p.cluster = r.cluster AND p.parent IS NULL AND p.node = r.node
    UNION ALL
    SELECT t.rid, p.pid, t.weight * r.w
    FROM row_tuples AS t
    JOIN prefix_tree AS p ON p.parent = t.pid
    JOIN row_weight AS r ON r.rid = t.rid AND r.node = p.node
), tuple_weight AS (
    SELECT i.cluster, i.prefix AS nodes, sum(t.weight) AS weight
    FROM row_tuples AS t
    JOIN prefix_ids AS i ON i.pid = t.pid
    GROUP BY i.cluster, i.prefix
), answered AS (
    SELECT a.qid, a.p_qi * w.weight AS share
    FROM wanted AS a
    JOIN tuple_weight AS w ON w.cluster = a.cluster AND w.nodes = a.nodes
)
SELECT q.qid, coalesce(sum(a.share), 0.0) AS estimate
FROM eval_rt_query AS q
LEFT JOIN answered AS a ON a.qid = q.qid
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
-- it: the adversary need not know which node stands for it). Worked without a pass over the
-- class's rows per target: a row covers an item iff one of its *top* released nodes (under no
-- other node of the row) is above it, and at most one is (they are disjoint subtrees). So rows
-- of a class with the same top nodes among those above some known item (a `pattern`) are
-- candidates alike; a target counts, per pattern of its class, its known items with a node of
-- the pattern above them, and takes the pattern's rows when that is all of them.
CREATE OR REPLACE TABLE eval_rt_attack AS
WITH known AS (
    SELECT t.tid, t.size, c.class, i.item, n.id AS node
    FROM eval_rt_target AS t
    JOIN eval_rt_row_class AS c ON c.rid = t.rid
    JOIN (SELECT DISTINCT tid, item FROM eval_rt_target_item) AS i ON i.tid = t.tid
    JOIN rt_node AS n ON i.item BETWEEN n.id AND n.last
), nested AS (
    SELECT DISTINCT g.rid, g.node
    FROM rt_generalized AS g
    JOIN rt_generalized AS h ON h.rid = g.rid
    JOIN rt_node AS a ON a.id = h.node
    WHERE a.id < g.node AND g.node <= a.last
), row_patterns AS (
    SELECT c.class, g.rid, list(g.node ORDER BY g.node) AS nodes
    FROM rt_generalized AS g
    JOIN eval_rt_row_class AS c ON c.rid = g.rid
    LEFT JOIN nested AS x ON x.rid = g.rid AND x.node = g.node
    WHERE x.rid IS NULL AND g.node IN (SELECT node FROM known)
    GROUP BY c.class, g.rid
), patterns AS (
    SELECT class, nodes, count(*) AS n_rows, row_number() OVER (ORDER BY class, nodes) AS pid
    FROM row_patterns
    GROUP BY class, nodes
), pattern_nodes AS (
    SELECT class, pid, n_rows, unnest(nodes) AS node FROM patterns
), matched AS (
    SELECT k.tid, p.pid, any_value(p.n_rows) AS n_rows
    FROM known AS k
    JOIN pattern_nodes AS p ON p.class = k.class AND p.node = k.node
    GROUP BY k.tid, p.pid
    HAVING count(*) = any_value(k.size)
)
SELECT t.tid, t.size, coalesce(sum(m.n_rows), 0)::BIGINT AS candidates
FROM eval_rt_target AS t
LEFT JOIN matched AS m ON m.tid = t.tid
GROUP BY t.tid, t.size
ORDER BY t.tid;

-- name: rt_eval_attack_read
-- The attacks' candidates, by target.
SELECT tid, size, candidates FROM eval_rt_attack ORDER BY tid;
