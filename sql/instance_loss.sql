-- NCP and LM over original item instances, where every released copy stands for exactly one
-- original item under it (issue 13's measure). A set release is read the same way: one row of
-- `release(tid, node)` is one copy. Items no copy stands for are suppressed and cost 1.
--
-- Per transaction the copies are matched to items bottom-up, one statement per tree level:
-- matched(p) = least(items under p, copies at p + sum of matched(q) over p's children q). In a
-- laminar family this is a largest matching, and it leaves unmatched the copies highest in the
-- tree, so it is also the cheapest: a matched copy costs its node's NCP <= 1, a suppressed item 1.

-- name: instance_nodes
-- Every (transaction, node above one of its items): the items under it and the copies at it.
CREATE OR REPLACE TEMP TABLE instance_node AS
WITH under AS (
    SELECT t.tid, c.ancestor AS node, count(*) AS items
    FROM tx AS t
    JOIN closure AS c ON c.node = t.item
    GROUP BY t.tid, c.ancestor
), copies AS (
    SELECT tid, node, count(*) AS copies FROM release GROUP BY tid, node
)
SELECT u.tid, u.node, n.parent, n.depth, n.ncp, n.lm, u.items, coalesce(c.copies, 0) AS copies
FROM under AS u
JOIN node AS n ON n.id = u.node
LEFT JOIN copies AS c ON c.tid = u.tid AND c.node = u.node;

-- name: instance_depth
-- The depth of the deepest node held (`depth`): the matching starts there.
SELECT coalesce(max(depth), 0) AS depth FROM instance_node;

-- name: instance_match_start
-- The matching, filled one level at a time from the deepest.
CREATE OR REPLACE TEMP TABLE instance_match (
    tid BIGINT, node INTEGER, parent INTEGER, depth INTEGER, ncp DOUBLE, lm DOUBLE,
    matched BIGINT, below BIGINT
);

-- name: instance_match_level
-- Copies matched at or below every node of depth $depth, given its children's matching.
INSERT INTO instance_match
WITH children AS (
    SELECT tid, parent AS node, sum(matched) AS below
    FROM instance_match
    WHERE depth = $depth + 1
    GROUP BY tid, parent
)
SELECT n.tid, n.node, n.parent, n.depth, n.ncp, n.lm,
       least(n.items, n.copies + coalesce(c.below, 0)) AS matched, coalesce(c.below, 0) AS below
FROM instance_node AS n
LEFT JOIN children AS c ON c.tid = n.tid AND c.node = n.node
WHERE n.depth = $depth;

-- name: instance_loss
-- The figures: copies matched at a node cost its NCP (LM), unmatched items 1 each; copies that
-- stand for no item of their transaction are counted apart.
WITH totals AS (
    SELECT sum((matched - below) * ncp) AS ncp, sum((matched - below) * lm) AS lm,
           sum(matched) FILTER (WHERE parent IS NULL) AS matched
    FROM instance_match
), original AS (
    SELECT count(*) AS instances FROM tx
)
SELECT o.instances,
       coalesce((t.ncp + o.instances - t.matched) / nullif(o.instances, 0), 0) AS ncp,
       coalesce((t.lm + o.instances - t.matched) / nullif(o.instances, 0), 0) AS lm,
       o.instances - coalesce(t.matched, 0) AS suppressed,
       (SELECT count(*) FROM release) AS released_items,
       (SELECT count(*) FROM release) - coalesce(t.matched, 0) AS unmatched_copies
FROM totals AS t, original AS o;
