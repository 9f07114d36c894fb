-- Tables of a dataset (schema setanon_d{id}) and of a hierarchy used with it (setanon_d{id}_h{n}).
-- `tx_raw(tid, label)` holds the transactions as loaded; `node` the hierarchy numbered in preorder.

-- name: dataset_stats
-- Transactions, distinct items, item occurrences, longest and mean transaction of the raw data.
SELECT count(DISTINCT tid) AS transactions,
       count(DISTINCT label) AS items,
       count(*) AS occurrences,
       max(n) AS longest,
       avg(n) AS mean_length
FROM (SELECT tid, label, count(*) OVER (PARTITION BY tid) AS n FROM tx_raw);

-- name: dataset_size
-- Transactions and distinct items of a dataset being made (what the registry records; no
-- window over every row as `dataset_stats` needs for lengths).
SELECT (SELECT count(*) FROM tids) AS transactions,
       (SELECT count(DISTINCT label) FROM tx_raw) AS items;

-- name: closure
-- Every (node, ancestor) pair, self included, from the preorder intervals of `node`.
CREATE TABLE closure AS
SELECT d.id AS node, a.id AS ancestor, d.depth - a.depth AS distance
FROM node AS d
JOIN node AS a ON d.id BETWEEN a.id AND a.last
ORDER BY node, ancestor;

-- name: encode_transactions
-- The transactions with items replaced by the integer id of their hierarchy leaf.
CREATE TABLE tx AS
SELECT r.tid, n.id AS item
FROM tx_raw AS r
JOIN node AS n ON n.label = r.label
ORDER BY r.tid, item;

-- name: make_node
-- The hierarchy numbered in preorder, from one list per column: id, label, parent (NULL for
-- the root), depth, last id of its subtree, leaves below it, whether it is a leaf, and its NCP
-- and LM costs. Unnested first and cast afterwards: CAST(unnest($id) AS INTEGER) took 17 ms
-- for the 4,454 nodes of the BMS-WebView-2 tree, this 5 ms.
CREATE TABLE node AS
SELECT CAST(id AS INTEGER) AS id,
       CAST(label AS VARCHAR) AS label,
       CAST(parent AS INTEGER) AS parent,
       CAST(depth AS INTEGER) AS depth,
       CAST(last AS INTEGER) AS last,
       CAST(leaf_count AS INTEGER) AS leaf_count,
       CAST(is_leaf AS BOOLEAN) AS is_leaf,
       CAST(ncp AS DOUBLE) AS ncp,
       CAST(lm AS DOUBLE) AS lm
FROM (
    SELECT unnest($id) AS id, unnest($label) AS label, unnest($parent) AS parent,
           unnest($depth) AS depth, unnest($last) AS last, unnest($leaf_count) AS leaf_count,
           unnest($is_leaf) AS is_leaf, unnest($ncp) AS ncp, unnest($lm) AS lm
);

-- name: hierarchy_edges
-- The hierarchy in use as (child, parent) labels, children in preorder.
SELECT c.label AS child, p.label AS parent
FROM node AS c
JOIN node AS p ON p.id = c.parent
ORDER BY c.id;
