-- LGR (Kim, Electronics 2023): Partition, then a bottom-up reallocation of the transactions
-- that wait in generalized classes (WFQ). Each waiting transaction is rolled up the hierarchy
-- level by level from its own items; it moves into a class of the release (FinalQ) with the
-- same generalized itemset, or forms a new class with at least k - 1 other waiting
-- transactions that share one, whenever that lowers its NCP and the class it leaves keeps at
-- least k transactions. Costs are in leaf units (NCP x leaves), so they are exact.

-- name: lgr_ancestor_at
-- For every node and every depth 0..max depth: its ancestor at that depth, or the node itself
-- when it is not that deep (rolling a node up to a level).
CREATE OR REPLACE TABLE lgr_ancestor_at AS
SELECT c.node, d.level, a.id AS ancestor,
       CASE WHEN a.is_leaf THEN 0 ELSE a.leaf_count END AS cost_units
FROM closure AS c
JOIN node AS x ON x.id = c.node
JOIN node AS a ON a.id = c.ancestor
JOIN range(0, (SELECT max(depth) + 1 FROM node)) AS d(level)
  ON a.depth = least(x.depth, d.level);

-- name: lgr_candidate
-- Every itemset a waiting transaction reaches by rolling its items up to a level (1 to the
-- leaves), with its cost for the transaction, when that is below its cost now. Costs come
-- first so that only the cheaper levels build their itemset.
CREATE OR REPLACE TABLE lgr_candidate AS
WITH level_cost AS (
    SELECT t.tid, a.level, sum(a.cost_units) AS cost_units
    FROM tx AS t
    SEMI JOIN lgr_cost AS w ON w.tid = t.tid
    JOIN lgr_ancestor_at AS a ON a.node = t.item AND a.level > 0
    GROUP BY t.tid, a.level
), cheaper AS (
    SELECT l.*
    FROM level_cost AS l
    JOIN lgr_cost AS w ON w.tid = l.tid AND l.cost_units < w.cost_units
), rolled AS (
    SELECT c.tid, list(DISTINCT a.ancestor ORDER BY a.ancestor) AS itemset, c.cost_units
    FROM cheaper AS c
    JOIN tx AS t ON t.tid = c.tid
    JOIN lgr_ancestor_at AS a ON a.node = t.item AND a.level = c.level
    GROUP BY c.tid, c.level, c.cost_units
)
SELECT DISTINCT tid, itemset, cost_units
FROM rolled;

-- name: lgr_fit_start
-- Classes of the release whose cut generalizes a waiting transaction are found by walking the
-- partition tree down from the root, whose cut fits every transaction: a transaction that
-- fits a partition fits its child made by expanding node X exactly when its own items fall
-- under the same children of X. `lgr_fit` gathers the (transaction, partition) pairs that
-- fit, `lgr_fit_frontier` holds the ones found last.
CREATE OR REPLACE TABLE lgr_fit_frontier AS
SELECT tid, 0::BIGINT AS pid
FROM lgr_cost;

-- name: lgr_fit_step
-- The tree children that the pairs of the frontier fit: for every node their partition was
-- split on, the children the transaction's items fall under, matched against the children
-- of the partitions that split made.
CREATE OR REPLACE TABLE lgr_fit_frontier AS
WITH probe AS (
    SELECT DISTINCT f.tid, f.pid, c.expanded
    FROM lgr_fit_frontier AS f
    JOIN partition_tree AS c ON c.parent = f.pid
), step AS (
    SELECT p.tid, p.pid, p.expanded, e.bit, e.rank, e.child
    FROM probe AS p
    JOIN tx AS t ON t.tid = p.tid
    JOIN partition_expand_step AS e ON e.item = t.item AND e.node = p.expanded
), bucket AS (
    SELECT tid, pid, expanded, bit_or(bit) AS mask,
           list_sort(list_distinct(list(child) FILTER (WHERE rank >= 64))) AS wide
    FROM step
    GROUP BY tid, pid, expanded
)
SELECT b.tid, c.pid
FROM bucket AS b
JOIN partition_tree AS c
  ON c.parent = b.pid AND c.expanded = b.expanded
 AND c.mask IS NOT DISTINCT FROM b.mask AND c.wide IS NOT DISTINCT FROM b.wide;

-- name: lgr_fit_gather
-- Keep the pairs just found.
INSERT INTO lgr_fit
SELECT tid, pid FROM lgr_fit_frontier;

-- name: lgr_fit_none
-- No pair found yet.
CREATE OR REPLACE TABLE lgr_fit (tid BIGINT, pid BIGINT);

-- name: lgr_fit_candidate
-- Every class of the release (other than its own) that a waiting transaction fits at a lower
-- cost than its own: a candidate to move into, its itemset the class's cut.
INSERT INTO lgr_candidate
WITH pair AS MATERIALIZED (
    SELECT f.tid, f.pid
    FROM lgr_fit AS f
    SEMI JOIN lgr_class AS l ON l.pid = f.pid
    ANTI JOIN lgr_cost AS w ON w.tid = f.tid AND w.pid = f.pid
), reach AS MATERIALIZED (
    SELECT p.tid, p.pid, a.ancestor AS node
    FROM pair AS p
    JOIN tx AS t ON t.tid = p.tid
    JOIN closure AS a ON a.node = t.item
), cost AS (
    SELECT r.tid, r.pid, sum(CASE WHEN n.is_leaf THEN 0 ELSE n.leaf_count END) AS cost_units
    FROM reach AS r
    JOIN partition_cut AS c ON c.pid = r.pid AND c.node = r.node
    JOIN node AS n ON n.id = c.node
    GROUP BY r.tid, r.pid
)
SELECT c.tid, l.itemset, c.cost_units
FROM cost AS c
JOIN lgr_cost AS w ON w.tid = c.tid AND c.cost_units < w.cost_units
JOIN lgr_class AS l ON l.pid = c.pid;

-- name: lgr_cost
-- The waiting transactions: those with a generalized item in the release, with their class
-- and their cost in it, in leaf units. An item's cut node is found by the preorder range test
-- within its own class: the left join keeps the class and the range in one condition, so no
-- plan can pair an item with a cut node of every class that holds it (issue 26). Items no cut
-- node covers add NULL, which sum() skips, as the inner join skipped them.
CREATE OR REPLACE TABLE lgr_cost AS
SELECT t.tid, any_value(o.pid) AS pid, sum(c.cost_units) AS cost_units
FROM tx AS t
JOIN partition_of AS o ON o.tid = t.tid
LEFT JOIN (
    SELECT c.pid, n.id, n.last, CASE WHEN n.is_leaf THEN 0 ELSE n.leaf_count END AS cost_units
    FROM partition_cut AS c
    JOIN node AS n ON n.id = c.node
) AS c ON c.pid = o.pid AND t.item BETWEEN c.id AND c.last
GROUP BY t.tid
HAVING sum(c.cost_units) > 0;

-- name: lgr_class
-- Every class of the current release (FinalQ): its partition, itemset and size.
CREATE OR REPLACE TABLE lgr_class AS
WITH size AS (SELECT pid, count(*) AS size FROM partition_of GROUP BY pid)
SELECT c.pid, list(c.node ORDER BY c.node) AS itemset, any_value(s.size) AS size
FROM partition_cut AS c
JOIN size AS s USING (pid)
GROUP BY c.pid;

-- name: lgr_move
-- One round of moves. Each waiting transaction takes its cheapest candidate itemset that is a
-- class of the release, or that at least $k waiting transactions share as a candidate (a new
-- class); ties: an existing class, then the smaller itemset, then the smaller class id. A
-- class lets go of its movers of largest saving (ties: smallest tid) as long as it keeps $k;
-- it lets all of them go only when they all move to existing classes, none of which is itself
-- emptied, and nobody moves into it. New classes with fewer than $k movers are not made; the
-- others get ids from $next on.
CREATE OR REPLACE TABLE lgr_move AS
WITH shared AS (
    SELECT itemset
    FROM lgr_candidate
    GROUP BY itemset
    HAVING count(*) >= $k
), viable AS (
    SELECT c.tid, c.itemset, c.cost_units, e.pid AS target
    FROM lgr_candidate AS c
    LEFT JOIN lgr_class AS e ON e.itemset = c.itemset
    WHERE e.pid IS NOT NULL OR c.itemset IN (SELECT itemset FROM shared)
), best AS (
    SELECT v.*, w.pid AS source, w.cost_units - v.cost_units AS saving
    FROM viable AS v
    JOIN lgr_cost AS w ON w.tid = v.tid AND v.cost_units < w.cost_units
    QUALIFY row_number() OVER (
        PARTITION BY v.tid ORDER BY v.cost_units, v.target IS NULL, v.itemset, v.target) = 1
), emptiable AS (
    SELECT b.source
    FROM best AS b
    JOIN lgr_class AS s ON s.pid = b.source
    WHERE b.source NOT IN (SELECT target FROM best WHERE target IS NOT NULL)
    GROUP BY b.source
    HAVING count(*) = any_value(s.size) AND count(*) FILTER (WHERE b.target IS NULL) = 0
), emptied AS (
    SELECT source
    FROM emptiable
    WHERE source NOT IN (
        SELECT b.source FROM best AS b JOIN emptiable AS e ON e.source = b.target)
), released AS (
    SELECT b.*
    FROM best AS b
    JOIN lgr_class AS s ON s.pid = b.source
    QUALIFY b.source IN (SELECT source FROM emptied)
         OR row_number() OVER (PARTITION BY b.source ORDER BY b.saving DESC, b.tid)
                <= s.size - $k
), grouped AS (
    SELECT *, count(*) OVER (PARTITION BY itemset) AS joining
    FROM released
)
SELECT tid, source, itemset,
       coalesce(target, $next - 1 + dense_rank() OVER (
           ORDER BY target IS NOT NULL, itemset)) AS target,
       target IS NULL AS new_class
FROM grouped
WHERE target IS NOT NULL OR joining >= $k;

-- name: lgr_new_classes
-- How many new classes the round makes.
SELECT count(DISTINCT target) AS classes FROM lgr_move WHERE new_class;

-- name: lgr_apply_cuts
-- The cut of every class the round makes: its itemset.
INSERT INTO partition_cut
SELECT DISTINCT target, unnest(itemset) AS node
FROM lgr_move
WHERE new_class;

-- name: lgr_apply_moves
-- Move the round's transactions to their new classes.
UPDATE partition_of
SET pid = m.target
FROM lgr_move AS m
WHERE m.tid = partition_of.tid;

-- name: lgr_fit_tail_pairs
-- The pairs left to walk when the walk moves to Python (algorithms/lgr_tail.py).
SELECT tid, pid FROM lgr_fit_frontier;

-- name: lgr_fit_tail_tree
-- The partitions below those of the pairs left to walk, with how each was made.
WITH RECURSIVE below AS (
    SELECT t.pid, t.parent, t.expanded, t.mask, t.wide
    FROM partition_tree AS t
    SEMI JOIN lgr_fit_frontier AS f ON f.pid = t.parent
    UNION ALL
    SELECT t.pid, t.parent, t.expanded, t.mask, t.wide
    FROM partition_tree AS t
    JOIN below AS b ON t.parent = b.pid
)
SELECT pid, parent, expanded, mask, wide FROM below;

-- name: lgr_fit_tail_items
-- The items of the transactions of the pairs left to walk.
SELECT t.tid, t.item
FROM tx AS t
SEMI JOIN lgr_fit_frontier AS f ON f.tid = t.tid;

-- name: lgr_fit_tail_steps
-- The expansion steps towards the items of the transactions of the pairs left to walk.
SELECT s.item, s.node, s.child, s.rank, s.bit
FROM partition_expand_step AS s
SEMI JOIN (
    SELECT t.item FROM tx AS t SEMI JOIN lgr_fit_frontier AS f ON f.tid = t.tid
) AS i ON i.item = s.item;

-- name: lgr_fit_tail_gather
-- Keep the pairs the Python walk found.
INSERT INTO lgr_fit SELECT tid, pid FROM lgr_fit_tail_found;
