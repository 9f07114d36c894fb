-- k^m-anonymity by global generalization over a hierarchy cut (AA, DA, OA; Terrovitis et al.
-- VLDB 2008). A run keeps its cut as `cut(item, node)`: every leaf mapped to the cut node above it.

-- name: km_expanded
-- The expanded transactions: every item together with all its ancestors, once per transaction.
-- An itemset's support here is its support under any cut holding its nodes. A node's subtree is
-- the id range node..last, so the items of a transaction under an ancestor are consecutive in id
-- order: the ancestor is new to the transaction exactly when it lies above the previous item
-- (its id is larger), and each pair is made once, with no DISTINCT over all of them (at 10^6
-- transactions: 2.3 s CPU against 5.9 s, peak 1.1 GB against 1.5 GB).
CREATE OR REPLACE TABLE expanded AS
WITH items AS (
    SELECT tid, item, lag(item) OVER (PARTITION BY tid ORDER BY item) AS previous
    FROM tx
), pairs AS (
    SELECT i.tid, c.ancestor AS node
    FROM items AS i
    JOIN closure AS c ON c.node = i.item AND (i.previous IS NULL OR c.ancestor > i.previous)
)
SELECT p.tid, p.node, n.last
FROM pairs AS p
JOIN node AS n ON n.id = p.node
ORDER BY node, tid;

-- name: km_node_stats
-- Every hierarchy node with the item instances under it and the transactions holding one of
-- them. Instances add up per leaf; `expanded` has one row per (transaction, node), so a node's
-- support is its row count there.
WITH per_leaf AS (
    SELECT item, count(*) AS instances
    FROM tx
    GROUP BY item
), under AS (
    SELECT c.ancestor AS id, sum(l.instances) AS instances
    FROM per_leaf AS l
    JOIN closure AS c ON c.node = l.item
    GROUP BY c.ancestor
), held AS (
    SELECT node AS id, count(*) AS support
    FROM expanded
    GROUP BY node
)
SELECT n.id, coalesce(n.parent, -1) AS parent, n.last, n.depth, n.leaf_count,
       coalesce(u.instances, 0) AS instances, coalesce(h.support, 0) AS support
FROM node AS n
LEFT JOIN under AS u USING (id)
LEFT JOIN held AS h USING (id)
ORDER BY n.id;

-- name: km_sample_keys
-- The (transaction, node) pairs of the sample (tid % $share = 0) as keys tid * $span + node:
-- what counting candidates on the sample probes, one in $share of `expanded`'s transactions.
CREATE OR REPLACE TABLE sample_keys AS
SELECT tid * $span + node AS key
FROM expanded
WHERE tid % $share = 0;

-- name: km_node_rank
-- The paper's item order for walking violations: more general nodes (more leaves) first.
CREATE OR REPLACE TABLE node_rank AS
SELECT id, row_number() OVER (ORDER BY leaf_count DESC, id) AS rank
FROM node;

-- name: km_generalized
-- The transactions generalized by the current cut (set semantics).
CREATE OR REPLACE TABLE generalized AS
SELECT DISTINCT t.tid, c.node
FROM tx AS t
JOIN cut AS c ON c.item = t.item
ORDER BY t.tid, c.node;

-- name: km_release
-- The release: every transaction generalized by the final cut (set semantics).
CREATE OR REPLACE TABLE release AS
SELECT DISTINCT t.tid, c.node
FROM tx AS t
JOIN cut AS c ON c.item = t.item
ORDER BY t.tid, c.node;

-- name: km_single_supports
-- The supports known so far, starting with every single node's; the walk adds those it counts.
-- Only a support's comparison with k is read, so a support may be known only on one side of k:
-- then `exact` is false and `support` is a bound (see km_cut.Supports).
CREATE OR REPLACE TABLE itemset_supports AS
SELECT [node] AS itemset, count(*) AS support, true AS exact
FROM expanded
GROUP BY node
ORDER BY node;

-- name: km_add_supports
-- Supports just found for images and candidate generalizations, added to those known.
INSERT INTO itemset_supports
SELECT itemset, support, exact FROM counted_supports;

-- name: km_new_images
-- Images of the walk batch that moved under the cut and whose support is not known yet.
SELECT DISTINCT b.image
FROM walk_batch AS b
ANTI JOIN itemset_supports AS s ON s.itemset = b.image
WHERE b.moved;

-- name: km_open_violations
-- Violations of the walk batch still to look at: their image has not moved (it is the itemset
-- itself, support under k) or its support is still under k.
SELECT b.pos, b.itemset, b.image
FROM walk_batch AS b
LEFT JOIN itemset_supports AS s ON s.itemset = b.image
WHERE NOT b.moved OR s.support < $k
ORDER BY b.pos;

-- name: km_expanded_lengths
-- How many expanded transactions have each length (root aside).
SELECT n, count(*) AS transactions
FROM (SELECT count(*) - 1 AS n FROM expanded GROUP BY tid)
GROUP BY n
ORDER BY n;

-- name: km_generalized_lengths
-- How many transactions generalized by the current cut have each length.
SELECT n, count(*) AS transactions
FROM (SELECT count(*) AS n FROM generalized GROUP BY tid)
GROUP BY n
ORDER BY n;

-- name: km_expanded_itemsets
-- The violating expanded itemsets in walk order, as their nodes (`item_1`.. `item_m`, NULL past
-- an itemset's size).
SELECT * EXCLUDE (pos, support) FROM violations_expanded ORDER BY pos;

-- name: km_split_expanded
-- The expanded transactions cut down to the nodes of `split_node(node, is_child, split_of,
-- whole)` (the cut, its candidates to split marked `whole`, and their children with the
-- candidate they split), for the transactions holding one of those children: the others
-- generalize as before, so splitting cannot make their itemsets violate. Only itemsets holding
-- a child can name a split. `open` is false for the children of a candidate with a child under
-- $k: that child alone forbids the split, so no larger itemset holding one of its children can
-- change a decision (km_sql.split_violations).
CREATE OR REPLACE TABLE split_expanded AS
WITH touched AS (
    SELECT DISTINCT e.tid
    FROM expanded AS e
    JOIN split_node AS s ON s.node = e.node AND s.is_child
), cut_down AS (
    SELECT e.tid, e.node, e.last, s.is_child, s.split_of
    FROM expanded AS e
    JOIN split_node AS s ON s.node = e.node
    SEMI JOIN touched AS t ON t.tid = e.tid
), splittable AS (
    SELECT split_of
    FROM (
        SELECT node, split_of, count(*) AS support
        FROM cut_down
        WHERE is_child
        GROUP BY node, split_of
    ) AS c
    GROUP BY split_of
    HAVING min(support) >= $k
)
SELECT tid, node, last, is_child,
       NOT is_child OR split_of IN (SELECT split_of FROM splittable) AS open
FROM cut_down
ORDER BY tid, node;
