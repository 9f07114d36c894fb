-- k^m-anonymity by global generalization over a hierarchy cut (AA, DA, OA; Terrovitis et al.
-- VLDB 2008). A run keeps its cut as `cut(item, node)`: every leaf mapped to the cut node above it.

-- name: km_node_stats
-- Every hierarchy node with the item instances under it and the transactions holding one of them.
WITH under AS (
    SELECT c.ancestor AS id, count(*) AS instances, count(DISTINCT t.tid) AS support
    FROM tx AS t
    JOIN closure AS c ON c.node = t.item
    GROUP BY c.ancestor
)
SELECT n.id, coalesce(n.parent, -1) AS parent, n.last, n.depth, n.leaf_count,
       coalesce(u.instances, 0) AS instances, coalesce(u.support, 0) AS support
FROM node AS n
LEFT JOIN under AS u USING (id)
ORDER BY n.id;

-- name: km_expanded
-- The expanded transactions: every item together with all its ancestors, once per transaction.
-- An itemset's support here is its support under any cut holding its nodes.
CREATE OR REPLACE TABLE expanded AS
SELECT DISTINCT t.tid, c.ancestor AS node, n.last
FROM tx AS t
JOIN closure AS c ON c.node = t.item
JOIN node AS n ON n.id = c.ancestor
ORDER BY node, t.tid;

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
CREATE OR REPLACE TABLE itemset_supports AS
SELECT [node] AS itemset, count(*) AS support
FROM expanded
GROUP BY node
ORDER BY node;

-- name: km_add_supports
-- Supports just counted for images and candidate generalizations, added to those known.
INSERT INTO itemset_supports
SELECT itemset, support FROM counted_supports;

-- name: km_new_images
-- Images of the walk batch that moved under the cut and whose support is not known yet.
SELECT DISTINCT b.image
FROM walk_batch AS b
ANTI JOIN itemset_supports AS s ON s.itemset = b.image
WHERE b.moved;

-- name: km_open_violations
-- Violations of the walk batch still to look at: their image has not moved (it is the itemset
-- itself, support under k) or, unless the walk passes over generalized itemsets, its support
-- is still under k.
SELECT b.pos, b.itemset, b.image
FROM walk_batch AS b
LEFT JOIN itemset_supports AS s ON s.itemset = b.image
WHERE NOT b.moved OR (NOT $skip_generalized AND s.support < $k)
ORDER BY b.pos;

-- name: km_expanded_lengths
-- How many expanded transactions have each length (items plus all their ancestors, root aside).
SELECT n, count(*) AS transactions
FROM (SELECT count(*) - 1 AS n FROM expanded GROUP BY tid)
GROUP BY n
ORDER BY n;
