-- Partition (He & Naughton, VLDB 2009): top-down local generalization, one level of the
-- recursion per round and every partition of the frontier in the same statement.
--
-- Every partition that is still being split holds transactions with one and the same
-- generalized itemset, its cut (`partition_cut`). `partition_bucket` holds, for every such
-- transaction and every expandable (non-leaf) node of its cut, the bucket the transaction
-- would go to if that node were expanded: the children covering its items under it. A level
-- only changes the buckets of the nodes it expands, so the table is carried from level to
-- level and only the children just opened get their buckets computed, from the item steps
-- of `partition_expand_step`. Gains are integers (leaf counts), so sums and ties are exact.
--
-- Why the per-transaction tables are narrow (tid, pid INTEGER; no log of every move): at 10^7
-- transactions the frontier holds tens of millions of bucket rows and is rewritten every level,
-- so every byte a row carries is paid once per level. A transaction leaving the frontier is
-- written once, with its final partition, to `partition_done` (append-only).

-- name: partition_size
-- The transactions of the data, the NCP scale (leaves x item instances), and whether any node
-- has more than 64 children: only then can a bucket hold children of rank >= 64 (a `wide`
-- list); without, the rounds leave that list out of their keys (`$wide` false).
SELECT (SELECT count(*) FROM tids) AS transactions,
       (SELECT count(*) FROM node WHERE is_leaf) * (SELECT count(*) FROM tx) AS scale,
       coalesce((
           SELECT max(children) > 64
           FROM (SELECT count(*) AS children FROM node WHERE parent IS NOT NULL GROUP BY parent)
       ), false) AS wide;

-- name: partition_child_rank
-- Every non-root node with its rank among its siblings (0, 1, ...) and that rank's bit: a
-- bucket's children under the expanded node are a bit mask of these (ranks >= 64 have no bit
-- and go to a list instead).
CREATE OR REPLACE TABLE partition_child_rank AS
SELECT *, CASE WHEN rank < 64 THEN 1::UBIGINT << rank END AS bit
FROM (
    SELECT id, parent, (row_number() OVER (PARTITION BY parent ORDER BY id) - 1)::INTEGER AS rank
    FROM node
    WHERE parent IS NOT NULL
);

-- name: partition_expand_step
-- Every step down from an ancestor towards an item of the data: the ancestor (node), its child
-- towards the item, that child's sibling rank and bit, the gain in leaves of replacing the
-- node by the child, and the next step below the child (NULL at a leaf). The gain is the
-- NCP drop (NCP of the node minus NCP of the child, 0 for a leaf child), or with $drop false
-- the node's NCP (how the public Python implementation of Partition weighs a node).
CREATE OR REPLACE TABLE partition_expand_step AS
WITH path AS (
    SELECT i.item, p.id AS node, c.id AS child, r.rank, r.bit,
           p.leaf_count - CASE WHEN $drop AND NOT c.is_leaf THEN c.leaf_count ELSE 0 END
               AS gain_units
    FROM (SELECT DISTINCT item FROM tx) AS i
    JOIN closure AS up ON up.node = i.item AND up.distance > 0
    JOIN closure AS down ON down.node = i.item AND down.distance = up.distance - 1
    JOIN node AS p ON p.id = up.ancestor
    JOIN node AS c ON c.id = down.ancestor
    JOIN partition_child_rank AS r ON r.id = c.id
), numbered AS (
    SELECT row_number() OVER (ORDER BY item, node)::INTEGER AS step, *
    FROM path
)
SELECT s.*, n.step AS next_step
FROM numbered AS s
LEFT JOIN numbered AS n ON n.item = s.item AND n.node = s.child;

-- name: partition_start_moves
-- Every transaction starts in partition 0, whose cut is the root. The moves of the
-- transactions that go to a new partition are logged only by the Python rounds and, when the
-- per-level tables are kept for inspection, by the SQL rounds (ids grow level by level).
CREATE OR REPLACE TABLE partition_moves (level INTEGER, tid INTEGER, pid INTEGER);

-- name: partition_start_done
-- The transactions that left the frontier, each with its final partition (append-only).
CREATE OR REPLACE TABLE partition_done (tid INTEGER, pid INTEGER);

-- name: partition_start_tree
-- The partition tree: every partition made, its parent, the node it expanded and the children
-- its transactions hold under that node (mask and wide list as in partition_bucket).
CREATE OR REPLACE TABLE partition_tree (
    level INTEGER, pid BIGINT, parent BIGINT, expanded INTEGER, mask UBIGINT, wide INTEGER[]
);

-- name: partition_start_cut
-- The cut of partition 0: the root alone.
CREATE OR REPLACE TABLE partition_cut AS
SELECT 0 AS pid, id AS node FROM node WHERE parent IS NULL;

-- name: partition_start_blocked
-- No node is blocked yet.
CREATE OR REPLACE TABLE partition_blocked (pid BIGINT, node INTEGER);

-- name: partition_start_bucket
-- The buckets of every transaction under the root: the root's children covering its items
-- (a bit mask of their sibling ranks, plus a list of those of rank >= 64, NULL when none),
-- and its gain from the expansion (the order in which it is given to a leftover).
CREATE OR REPLACE TABLE partition_bucket AS
WITH opened AS (
    SELECT t.tid, s.node AS expanded, s.rank, s.bit, s.child, s.gain_units
    FROM tx AS t
    JOIN node AS r ON r.parent IS NULL
    JOIN partition_expand_step AS s ON s.item = t.item AND s.node = r.id
), wide AS (
    -- children of rank >= 64 (none below a fan-out of 65) in a join of their own: a list
    -- aggregate over every bucket would cost memory for lists that are all empty; with no
    -- such node in the hierarchy ($wide false) the join is not even made
    SELECT t.tid, list_sort(list_distinct(list(s.child))) AS wide
    FROM tx AS t
    JOIN node AS r ON r.parent IS NULL
    JOIN partition_expand_step AS s ON s.item = t.item AND s.node = r.id AND s.rank >= 64
    WHERE $wide
    GROUP BY t.tid
)
SELECT o.tid::INTEGER AS tid, 0::INTEGER AS pid, o.expanded, o.mask::UBIGINT AS mask, w.wide,
       o.tx_gain
FROM (
    SELECT tid, expanded, bit_or(bit) AS mask, sum(gain_units)::BIGINT AS tx_gain
    FROM opened
    GROUP BY tid, expanded
) AS o
LEFT JOIN wide AS w ON w.tid = o.tid;

-- name: partition_outcome
-- What expanding each candidate node would do to its partition, one row per bucket it would
-- make (size, gain) with the node's verdict: a leftover of 1..k-1 needs the transactions
-- that large buckets can spare (keeping them >= k); when they cannot spare enough, or no
-- bucket has k, the split would be rolled back. The node's realized gain is the gain of the
-- transactions in buckets of >= k, the ones that do get its children. Nodes are ranked by
-- gain, or with $realized by realized gain, then gain, then id; the partition expands its
-- best-ranked node that is not rolled back, else its first (gain_rank 1); with $first_only
-- (the paper's own rule) always its first. Nodes ranked above the chosen one fail (with
-- "split" leftovers they are not tried again). A node's gain sums, over the partition's item
-- instances under it, their gain in leaf units; nodes whose split failed in that partition
-- (partition_blocked) are not candidates there. With no node of more than 64 children ($wide
-- false) every wide list is NULL and the buckets are grouped without that key (a list key
-- costs the grouping of the whole frontier about twice as much).
CREATE OR REPLACE TABLE partition_outcome AS
WITH bucket AS (
    SELECT pid, expanded AS node, mask, wide, count(*) AS size,
           sum(tx_gain)::BIGINT AS bucket_gain
    FROM partition_bucket
    WHERE $wide
    GROUP BY pid, expanded, mask, wide
    UNION ALL
    SELECT pid, expanded AS node, mask, NULL::INTEGER[] AS wide, count(*) AS size,
           sum(tx_gain)::BIGINT AS bucket_gain
    FROM partition_bucket
    WHERE NOT $wide
    GROUP BY pid, expanded, mask
), per_node AS (
    SELECT pid, node, sum(bucket_gain)::BIGINT AS gain_units,
           coalesce(sum(bucket_gain) FILTER (WHERE size >= $k), 0) AS realized_units,
           coalesce(sum(size) FILTER (WHERE size < $k), 0) AS small,
           coalesce(sum(size - $k) FILTER (WHERE size >= $k), 0) AS spares,
           count(*) FILTER (WHERE size >= $k) AS large_buckets
    FROM bucket
    GROUP BY pid, node
), decided AS (
    SELECT p.pid, p.node,
           CASE WHEN p.small BETWEEN 1 AND $k - 1 THEN $k - p.small ELSE 0 END AS need,
           p.large_buckets = 0
               OR (p.small BETWEEN 1 AND $k - 1 AND $k - p.small > p.spares) AS rolled_back,
           p.gain_units, p.realized_units,
           row_number() OVER (PARTITION BY p.pid ORDER BY
               CASE WHEN $realized THEN p.realized_units END DESC NULLS LAST,
               p.gain_units DESC, p.node) AS gain_rank
    FROM per_node AS p
    ANTI JOIN partition_blocked AS x ON x.pid = p.pid AND x.node = p.node
), pick AS (
    -- the rank each partition expands: its best that is not rolled back, else 1 (an aggregate,
    -- not a second window: a window's set-up costs more than the few rows it orders)
    SELECT pid,
           CASE WHEN $first_only THEN 1
                ELSE coalesce(min(gain_rank) FILTER (WHERE NOT rolled_back), 1) END AS chosen_rank
    FROM decided
    GROUP BY pid
)
SELECT d.*, d.gain_rank = c.chosen_rank AS chosen, b.mask, b.wide, b.size, b.bucket_gain
FROM decided AS d
JOIN pick AS c ON c.pid = d.pid
JOIN bucket AS b ON b.pid = d.pid AND b.node = d.node;

-- name: partition_gain
-- Information gain of every (partition, candidate node) pair of the level, in leaf units and
-- as a share of the whole database's NCP scale ($scale = leaves x item instances); made only
-- to be kept (keep_intermediate), the rounds read partition_outcome.
CREATE OR REPLACE TABLE partition_gain AS
SELECT DISTINCT pid, node, gain_units, gain_units / $scale AS gain
FROM partition_outcome;

-- name: partition_gain_log_start
-- The kept log of every level's partition_gain, with its level (keep_intermediate): level 1.
CREATE TABLE partition_gain_log AS
SELECT $level AS level, * FROM partition_gain;

-- name: partition_gain_log_add
-- The log of partition_gain: a later level's rows added.
INSERT INTO partition_gain_log
SELECT $level AS level, * FROM partition_gain;

-- name: partition_balance
-- The buckets of every partition's chosen node: those with >= $k transactions become new
-- partitions (ids from $next on, by partition and children) unless the split is rolled back;
-- smaller ones go to the leftover.
CREATE OR REPLACE TABLE partition_balance AS
SELECT pid, node AS expanded, mask, wide, size, need, rolled_back,
       CASE WHEN size >= $k AND NOT rolled_back
            THEN ($next - 1 + row_number() OVER (
                ORDER BY size < $k OR rolled_back, pid, mask, wide))::INTEGER
       END AS new_pid
FROM partition_outcome
WHERE chosen;

-- name: partition_split
-- The fate of every frontier transaction: the new partition it moves to (its bucket's), or
-- NULL when it stays: its bucket is small, the split is rolled back, or its large bucket
-- gives it to a leftover of 1..k-1 (only transactions beyond the bucket's k of largest gain
-- may go, and of these the partition takes the `need` of least gain, ties by smallest tid).
-- Wide lists are matched only when there can be any ($wide).
CREATE OR REPLACE TABLE partition_split AS
WITH placed AS (
    SELECT b.tid, b.pid, b.expanded, b.tx_gain, l.size, l.need, l.new_pid
    FROM partition_bucket AS b
    JOIN partition_balance AS l
      ON l.pid = b.pid AND l.expanded = b.expanded
     AND l.mask IS NOT DISTINCT FROM b.mask
     AND (NOT $wide OR l.wide IS NOT DISTINCT FROM b.wide)
), donor AS (
    SELECT tid
    FROM (
        SELECT tid, pid, tx_gain, need, size,
               row_number() OVER (PARTITION BY new_pid ORDER BY tx_gain, tid) AS rank_in_bucket
        FROM placed
        WHERE need > 0 AND new_pid IS NOT NULL
    )
    WHERE rank_in_bucket <= size - $k
    QUALIFY row_number() OVER (PARTITION BY pid ORDER BY tx_gain, tid) <= need
)
SELECT p.tid, p.pid, p.expanded, CASE WHEN o.tid IS NULL THEN p.new_pid END AS new_pid
FROM placed AS p
LEFT JOIN donor AS o USING (tid);

-- name: partition_grow_tree
-- Add the partitions made at this level to the tree: parent, expanded node and the children
-- in their itemset (mask and wide list as in partition_bucket).
INSERT INTO partition_tree
SELECT $level, new_pid, pid, expanded, mask, wide
FROM partition_balance
WHERE new_pid IS NOT NULL;

-- name: partition_add_cuts
-- The cut of every new partition: its parent's cut without the expanded node, plus the
-- children its transactions have under that node.
INSERT INTO partition_cut
WITH made AS (SELECT * FROM partition_tree WHERE level = $level)
SELECT f.pid, c.node
FROM made AS f
JOIN partition_cut AS c ON c.pid = f.parent AND c.node <> f.expanded
UNION ALL
SELECT f.pid, r.id
FROM made AS f
JOIN partition_child_rank AS r
  ON r.parent = f.expanded AND r.rank < 64 AND (f.mask >> r.rank) & 1 = 1
UNION ALL
SELECT pid, unnest(wide) AS node
FROM made;

-- name: partition_block
-- With the leftover going on splitting: the nodes that failed, and the chosen node where
-- transactions stay, are not tried again in that partition (its new partitions may try them).
-- Transactions stay exactly where a bucket of the chosen node gets no new partition (small, or
-- the split rolled back; a leftover that takes donors has a small bucket too), so the
-- partition's buckets say it, not its transactions.
INSERT INTO partition_blocked
WITH verdict AS (
    SELECT DISTINCT pid, node, rolled_back, gain_rank, chosen
    FROM partition_outcome
)
SELECT o.pid, o.node
FROM verdict AS o
JOIN verdict AS c ON c.pid = o.pid AND c.chosen
WHERE o.rolled_back AND (o.gain_rank < c.gain_rank OR c.rolled_back)
UNION
SELECT pid, expanded
FROM partition_balance
WHERE new_pid IS NULL;

-- name: partition_next_bucket
-- The buckets the next frontier keeps. Transactions of new partitions keep the buckets of
-- their other cut nodes; when $keep_leftover, transactions left in their partition keep their
-- buckets while it still has a node to try. The buckets of the children just opened are
-- added by partition_open_bucket: in a statement of their own, so that the hash tables of the
-- two (each over the whole frontier) are not held side by side (at 10^7 transactions under a
-- 4 GB limit, together they spilled).
CREATE OR REPLACE TABLE partition_bucket AS
WITH open_leftover AS (
    SELECT DISTINCT o.pid
    FROM partition_outcome AS o
    ANTI JOIN partition_blocked AS b ON b.pid = o.pid AND b.node = o.node
    WHERE $keep_leftover
)
SELECT b.tid, coalesce(s.new_pid, b.pid) AS pid, b.expanded, b.mask, b.wide, b.tx_gain
FROM partition_bucket AS b
JOIN partition_split AS s ON s.tid = b.tid
WHERE (s.new_pid IS NOT NULL AND b.expanded <> s.expanded)
   OR (s.new_pid IS NULL AND b.pid IN (SELECT pid FROM open_leftover));

-- name: partition_open_bucket
-- The buckets of the children just opened: transactions of new partitions get, for each
-- child they now hold under the expanded node (that is not a leaf), the grandchildren
-- covering their items there.
INSERT INTO partition_bucket
WITH opened AS (
    SELECT s.tid, s.new_pid, e.child AS expanded, n.rank, n.bit, n.child, n.gain_units
    FROM partition_split AS s
    JOIN tx AS t ON t.tid = s.tid
    JOIN partition_expand_step AS e ON e.item = t.item AND e.node = s.expanded
    JOIN partition_expand_step AS n ON n.step = e.next_step
    WHERE s.new_pid IS NOT NULL
), wide AS (
    -- grandchildren of rank >= 64 in a join of their own (see partition_start_bucket)
    SELECT s.tid, e.child AS expanded, list_sort(list_distinct(list(n.child))) AS wide
    FROM partition_split AS s
    JOIN tx AS t ON t.tid = s.tid
    JOIN partition_expand_step AS e ON e.item = t.item AND e.node = s.expanded
    JOIN partition_expand_step AS n ON n.step = e.next_step AND n.rank >= 64
    WHERE $wide AND s.new_pid IS NOT NULL
    GROUP BY s.tid, e.child
)
SELECT o.tid, o.new_pid, o.expanded, o.mask::UBIGINT, w.wide, o.tx_gain
FROM (
    SELECT tid, new_pid, expanded, bit_or(bit) AS mask, sum(gain_units)::BIGINT AS tx_gain
    FROM opened
    GROUP BY tid, new_pid, expanded
) AS o
LEFT JOIN wide AS w ON w.tid = o.tid AND w.expanded = o.expanded;

-- name: partition_retire
-- The transactions of this level's frontier whose partition (the one they moved to, else the
-- one they stayed in) has no bucket left: it is final. A partition's transactions share its
-- cut, so they all have a bucket for each of its expandable nodes or none has any: looking
-- up a few thousand partition ids costs far less than matching millions of transactions.
INSERT INTO partition_done
SELECT s.tid, coalesce(s.new_pid, s.pid)
FROM partition_split AS s
ANTI JOIN (SELECT DISTINCT pid FROM partition_bucket) AS b ON b.pid = coalesce(s.new_pid, s.pid);

-- name: partition_move
-- Log the moves of the transactions of new partitions (kept tables only).
INSERT INTO partition_moves
SELECT $level, tid, new_pid
FROM partition_split
WHERE new_pid IS NOT NULL;

-- name: partition_of
-- Every transaction's partition: the one it left the frontier in, or for those the Python
-- rounds finished, the last they moved to (ids grow level by level), else the one they were
-- in at the hand-over; 0 for a transaction never in the frontier.
CREATE OR REPLACE TABLE partition_of AS
WITH last AS (
    SELECT tid, max(pid) AS pid
    FROM (
        SELECT tid, pid FROM partition_done
        UNION ALL
        SELECT tid, pid FROM partition_moves
        UNION ALL
        SELECT tid, pid FROM partition_bucket
    )
    GROUP BY tid
)
SELECT t.tid, coalesce(l.pid, 0)::BIGINT AS pid
FROM tids AS t
LEFT JOIN last AS l ON l.tid = t.tid;

-- name: partition_final
-- Every equivalence class of the result: its partition, size and number of cut nodes.
CREATE OR REPLACE TABLE partition_final AS
SELECT o.pid, count(*) AS size,
       (SELECT count(*) FROM partition_cut AS c WHERE c.pid = o.pid) AS cut_size
FROM partition_of AS o
GROUP BY o.pid
ORDER BY o.pid;

-- name: partition_final :spark
-- The same classes on Spark, which takes no correlated scalar subquery beside an aggregate:
-- the cut sizes are counted once and joined.
CREATE OR REPLACE TABLE partition_final AS
SELECT o.pid, count(*) AS size, coalesce(c.cut_size, 0) AS cut_size
FROM partition_of AS o
LEFT JOIN (SELECT pid, count(*) AS cut_size FROM partition_cut GROUP BY pid) AS c
  ON c.pid = o.pid
GROUP BY o.pid, c.cut_size
ORDER BY o.pid;

-- name: partition_release
-- The release: every transaction generalized by its partition's final cut.
CREATE OR REPLACE TABLE release AS
SELECT o.tid, c.node
FROM partition_of AS o
JOIN partition_cut AS c USING (pid)
ORDER BY o.tid, c.node;

-- name: partition_tail_buckets
-- The buckets left when the rounds move to Python (algorithms/partition_tail.py).
SELECT tid, pid, expanded, mask, wide, tx_gain
FROM partition_bucket;

-- name: partition_tail_cuts
-- The cuts of the partitions still in the frontier.
SELECT c.pid, c.node
FROM partition_cut AS c
SEMI JOIN partition_bucket AS b ON b.pid = c.pid;

-- name: partition_tail_blocked
-- The nodes blocked in the partitions still in the frontier.
SELECT DISTINCT l.pid, l.node
FROM partition_blocked AS l
SEMI JOIN partition_bucket AS b ON b.pid = l.pid;

-- name: partition_tail_items
-- The items of the transactions still in the frontier.
SELECT t.tid, t.item
FROM tx AS t
SEMI JOIN partition_bucket AS b ON b.tid = t.tid;

-- name: partition_tail_steps
-- The expansion steps towards the items of the transactions still in the frontier.
SELECT s.item, s.node, s.child, s.rank, s.bit, s.gain_units
FROM partition_expand_step AS s
SEMI JOIN (
    SELECT t.item FROM tx AS t SEMI JOIN partition_bucket AS b ON b.tid = t.tid
) AS i ON i.item = s.item;

-- name: partition_tail_append_tree
-- Add the partitions the Python rounds made to the tree.
INSERT INTO partition_tree SELECT * FROM partition_tail_new_tree;

-- name: partition_tail_append_moves
-- Log the moves the Python rounds made.
INSERT INTO partition_moves SELECT * FROM partition_tail_new_moves;

-- name: partition_tail_append_cuts
-- Add the cuts of the partitions the Python rounds made.
INSERT INTO partition_cut SELECT * FROM partition_tail_new_cuts;

-- name: partition_tail_append_blocked
-- Add the nodes the Python rounds blocked.
INSERT INTO partition_blocked SELECT * FROM partition_tail_new_blocked;
