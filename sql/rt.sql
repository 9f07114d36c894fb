-- (k, k^m)-anonymity of a table with a set-valued column (Poulis, Loukides, Gkoulalas-Divanis &
-- Skiadopoulos, ECML PKDD 2013). Tables of the run: `rt_set(rid, items)` the set column as
-- loaded (text or a list), `rt_labels(rid, label)` its items as given (set semantics),
-- `rt_node(id, label, parent, last, leaf_count, depth)` the items' hierarchy in preorder,
-- `rt_tx(rid, item)` every record's items as leaves, `cluster(rid, cluster)` the classes of the
-- QIs, `rt_cut(cluster, item, node)` each class's own cut: its items mapped to the node above.

-- name: rt_set_problems
-- Records whose set is NULL or empty: the model needs an item in every record.
SELECT count(*) FILTER (WHERE items IS NULL OR len(items) = 0) AS empty_sets
FROM rt_set;

-- name: rt_labels_from_list
-- The items of a LIST set column as text, each item once per record.
CREATE OR REPLACE TABLE rt_labels AS
SELECT DISTINCT rid, CAST(label AS VARCHAR) AS label
FROM (SELECT rid, unnest(items) AS label FROM rt_set)
ORDER BY rid, label;

-- name: rt_label_problems
-- Items that are blank (or NULL), and items that are no leaf of the hierarchy, a few of each.
SELECT count(*) FILTER (WHERE l.label IS NULL OR l.label = '') AS blank,
       count(*) FILTER (WHERE l.label <> '' AND (n.id IS NULL OR n.last <> n.id)) AS unknown,
       list(DISTINCT l.label ORDER BY l.label) FILTER (
           WHERE l.label <> '' AND (n.id IS NULL OR n.last <> n.id)
       )[1:5] AS examples
FROM rt_labels AS l
LEFT JOIN rt_node AS n ON n.label = l.label;

-- name: rt_item_labels
-- The distinct items of the set column (what --code-prefix builds its tree over).
SELECT DISTINCT label FROM rt_labels ORDER BY label;

-- name: rt_make_tx
-- Every record's items as hierarchy leaves.
CREATE OR REPLACE TABLE rt_tx AS
SELECT l.rid, n.id AS item
FROM rt_labels AS l
JOIN rt_node AS n ON n.label = l.label
ORDER BY l.rid, item;

-- name: rt_longest_set
-- The most items one record holds.
SELECT max(n) AS longest FROM (SELECT count(*) AS n FROM rt_tx GROUP BY rid);

-- name: rt_cut_start
-- Every class's cut before the search: each item of the class stands for itself.
CREATE OR REPLACE TABLE rt_cut AS
SELECT DISTINCT c.cluster, t.item, t.item AS node
FROM rt_tx AS t
JOIN cluster AS c ON c.rid = t.rid
ORDER BY c.cluster, t.item;

-- name: rt_generalized
-- Every record's items generalized by its class's cut (set semantics), with the class.
CREATE OR REPLACE TABLE rt_generalized AS
SELECT DISTINCT c.cluster, t.rid, u.node
FROM rt_tx AS t
JOIN cluster AS c ON c.rid = t.rid
JOIN rt_cut AS u ON u.cluster = c.cluster AND u.item = t.item
ORDER BY c.cluster, t.rid, u.node;

-- name: rt_apply_lifts
-- Lift the cut of each class of `rt_lift(cluster, node)`: every item of the class under the
-- node now stands for it (the lifts of one class are disjoint subtrees).
UPDATE rt_cut AS u
SET node = l.node
FROM rt_lift AS l
JOIN rt_node AS n ON n.id = l.node
WHERE u.cluster = l.cluster AND u.item BETWEEN l.node AND n.last;

-- name: rt_release_sets
-- Every record's released set: the labels of its items generalized by its class's cut, in
-- preorder, as a list.
CREATE OR REPLACE TABLE rt_release_sets AS
SELECT g.rid, list(n.label ORDER BY g.node) AS labels
FROM rt_generalized AS g
JOIN rt_node AS n ON n.id = g.node
GROUP BY g.rid
ORDER BY g.rid;

-- name: rt_item_loss
-- NCP over item instances: an original item released as a node of L leaves costs
-- (L - 1) / (leaves - 1) (0 when the tree is one leaf), averaged over every record's items.
SELECT avg(CASE WHEN (SELECT max(leaf_count) FROM rt_node) <= 1 THEN 0.0
                ELSE (n.leaf_count - 1)::DOUBLE / ((SELECT max(leaf_count) FROM rt_node) - 1)
           END) AS item_ncp
FROM rt_tx AS t
JOIN cluster AS c ON c.rid = t.rid
JOIN rt_cut AS u ON u.cluster = c.cluster AND u.item = t.item
JOIN rt_node AS n ON n.id = u.node;

-- name: rt_release_set_list
-- The released set column of `rt_release_column(rid, items)`, a list, read back as items.
CREATE OR REPLACE TABLE rt_released_labels AS
SELECT DISTINCT rid, CAST(label AS VARCHAR) AS label
FROM (SELECT rid, unnest(items) AS label FROM rt_release_column)
ORDER BY rid, label;

-- name: rt_verify_items
-- Released items that are no node of the hierarchy or generalize no original item of their
-- record, and original items that no released item of their record generalizes.
CREATE OR REPLACE TABLE violations_rt_items AS
WITH released AS (
    SELECT r.rid, r.label, n.id, n.last
    FROM rt_released_labels AS r
    LEFT JOIN rt_node AS n ON n.label = r.label
), original AS (
    SELECT l.rid, l.label, n.id
    FROM rt_labels AS l
    JOIN rt_node AS n ON n.label = l.label
)
SELECT r.rid, r.label AS released, NULL AS original, 'released item generalizes none' AS problem
FROM released AS r
WHERE r.id IS NULL OR NOT EXISTS (
    SELECT 1 FROM original AS o WHERE o.rid = r.rid AND o.id BETWEEN r.id AND r.last
)
UNION ALL
SELECT o.rid, NULL, o.label, 'original item not released'
FROM original AS o
WHERE NOT EXISTS (
    SELECT 1 FROM released AS r WHERE r.rid = o.rid AND o.id BETWEEN r.id AND r.last
)
ORDER BY rid;

-- name: rt_released_nodes
-- Every record's released items as hierarchy nodes, with its class of the release (`rt_class`).
CREATE OR REPLACE TABLE rt_released_nodes AS
SELECT c.class, r.rid, n.id AS node
FROM rt_released_labels AS r
JOIN rt_node AS n ON n.label = r.label
JOIN rt_class AS c ON c.rid = r.rid
ORDER BY c.class, r.rid, node;

-- name: rt_verify_summary
-- The counts the verifier reports.
SELECT (SELECT count(*) FROM violations_rt_items) AS item_problems,
       (SELECT count(*) FROM violations_rt_km) AS failing_km;

-- name: rt_class_node_counts
-- How many records of every class hold every node of its cut (the generalized items): what a
-- lift costs is read from these counts.
SELECT cluster, node, count(*) AS n
FROM rt_generalized
GROUP BY cluster, node
ORDER BY cluster, node;
