-- Clump (SECRYPT 2010): clusters of >= k transactions, each released as its least common
-- generalization LCG(S). With count_t(p) = items of t under node p and c(p) = min over t in S of
-- count_t(p) (0 when some t has none), LCG(S) holds c(p) - sum over children q of c(q) copies of p.
--
-- GGD(S) = |S| * sum over LCG items of LM + N_s, N_s = sum |t| - |S| * |LCG(S)|. Telescoping the
-- copies gives the form the greedy search uses, in whole numbers after scaling by (leaves - 1):
--   GGD(S) * (M - 1) = items(S) * (M - 1) - |S| * sum over p of c(p) * w(p),
--   w(p) = leaves(parent p) - leaves(p) (0 for the root),
-- i.e. every item starts as suppressed (cost 1) and earns back the LM it keeps below the root.

-- name: lcg_of_clustering
-- LCG(S) of every cluster of `cluster_of(tid, cluster)`: the copies of each node it holds.
CREATE OR REPLACE TABLE lcg AS
WITH member_count AS (
    SELECT co.cluster, co.tid, c.ancestor AS node, count(*) AS cnt
    FROM cluster_of AS co
    JOIN tx AS t ON t.tid = co.tid
    JOIN closure AS c ON c.node = t.item
    GROUP BY co.cluster, co.tid, c.ancestor
), cluster_size AS (
    SELECT cluster, count(*) AS size FROM cluster_of GROUP BY cluster
), common AS (
    -- c(p), kept only where every transaction of the cluster has an item under p
    SELECT m.cluster, m.node, min(m.cnt) AS c
    FROM member_count AS m
    JOIN cluster_size AS s ON s.cluster = m.cluster
    GROUP BY m.cluster, m.node, s.size
    HAVING count(*) = s.size
), children_total AS (
    SELECT q.cluster, n.parent AS node, sum(q.c) AS c
    FROM common AS q
    JOIN node AS n ON n.id = q.node
    WHERE n.parent IS NOT NULL
    GROUP BY q.cluster, n.parent
)
SELECT p.cluster, p.node, CAST(p.c - coalesce(ch.c, 0) AS INTEGER) AS copies
FROM common AS p
LEFT JOIN children_total AS ch ON ch.cluster = p.cluster AND ch.node = p.node
WHERE p.c > coalesce(ch.c, 0)
ORDER BY p.cluster, p.node;

-- name: ggd_of_clustering
-- Per cluster: size, item occurrences, LCG items, their summed LM, suppressed occurrences, GGD.
CREATE OR REPLACE TABLE ggd AS
WITH members AS (
    SELECT co.cluster, count(DISTINCT co.tid) AS size, count(*) AS items
    FROM cluster_of AS co
    JOIN tx AS t ON t.tid = co.tid
    GROUP BY co.cluster
), released AS (
    SELECT l.cluster, sum(l.copies) AS lcg_items, sum(l.copies * n.lm) AS lm_sum
    FROM lcg AS l
    JOIN node AS n ON n.id = l.node
    GROUP BY l.cluster
)
SELECT m.cluster, m.size, m.items,
       coalesce(r.lcg_items, 0) AS lcg_items,
       coalesce(r.lm_sum, 0) AS lm_sum,
       m.items - m.size * coalesce(r.lcg_items, 0) AS suppressed,
       m.size * coalesce(r.lm_sum, 0) + m.items - m.size * coalesce(r.lcg_items, 0) AS ggd
FROM members AS m
LEFT JOIN released AS r ON r.cluster = m.cluster
ORDER BY m.cluster;

-- name: ggd_summary
-- The clustering as a whole: its clusters, total GGD, and the share of item occurrences its
-- LCGs suppress.
SELECT count(*) AS clusters, coalesce(sum(ggd), 0) AS ggd,
       sum(suppressed) / sum(items) AS suppressed_share
FROM ggd;

-- name: release_from_lcg
-- Every transaction released as the LCG of its cluster, one row per copy of a node.
CREATE OR REPLACE TABLE release AS
SELECT co.tid, l.node
FROM cluster_of AS co
JOIN lcg AS l ON l.cluster = co.cluster, range(l.copies)
ORDER BY co.tid, l.node;

-- name: clump_tx_count
-- count_t(p) for every transaction t and node p above one of its items, with p's weight w(p).
CREATE OR REPLACE TABLE tx_count AS
WITH counts AS (
    SELECT t.tid, c.ancestor AS node, count(*) AS cnt
    FROM tx AS t
    JOIN closure AS c ON c.node = t.item
    GROUP BY t.tid, c.ancestor
)
SELECT counts.tid, counts.node, CAST(counts.cnt AS INTEGER) AS cnt,
       CAST(coalesce(up.leaf_count - n.leaf_count, 0) AS BIGINT) AS w
FROM counts
JOIN node AS n ON n.id = counts.node
LEFT JOIN node AS up ON up.id = n.parent
ORDER BY counts.tid, counts.node;

-- name: clump_order
-- Transactions in similarity order, by their items' ancestors from the top down: first the
-- ancestors one level below the root, the dominant ones first, each with its count coarsened
-- to a power of $coarse (so 30 and 32 items under a node tie, and the next ancestor decides),
-- then length, then the exact multisets of every level's ancestors, dominant ones first (most
-- items under them, then id), then tid; cut into blocks of $k consecutive positions. A $coarse
-- of 1 keeps the exact counts.
CREATE OR REPLACE TABLE clump_order AS
WITH lengths AS (
    SELECT tid, count(*) AS len FROM tx GROUP BY tid
), ancestor AS (
    SELECT tc.tid, tc.node, tc.cnt, n.depth,
           CASE WHEN $coarse > 1 THEN floor(ln(tc.cnt) / ln($coarse)) ELSE tc.cnt END AS coarse
    FROM tx_count AS tc
    JOIN node AS n ON n.id = tc.node
    WHERE n.parent IS NOT NULL
), profile AS (
    SELECT tid,
           list({'node': node, 'fewer': -coarse} ORDER BY coarse DESC, node)
               FILTER (WHERE depth = 1 AND nth = 0) AS coarse,
           list(node ORDER BY cnt DESC, node) FILTER (WHERE depth = 1) AS top,
           list(node ORDER BY depth, cnt DESC, node) AS ancestors
    FROM ancestor, range(cnt) AS r(nth)
    GROUP BY tid
), ordered AS (
    SELECT l.tid, l.len,
           row_number() OVER (ORDER BY p.coarse, l.len, p.top, p.ancestors, l.tid) - 1 AS pos
    FROM lengths AS l
    LEFT JOIN profile AS p ON p.tid = l.tid
)
SELECT tid, len, CAST(pos AS BIGINT) AS pos, CAST(pos // $k AS INTEGER) AS block
FROM ordered
ORDER BY pos;

-- name: clump_scale
-- M - 1 (M = leaves of the hierarchy): the factor that keeps GGD costs whole numbers.
SELECT max(leaf_count) - 1 AS scale FROM node;

-- name: clump_segment_costs
-- Cost of every run of $k to 2$k - 1 consecutive transactions of the order taken as a cluster:
-- its GGD * (M - 1), at (pos * $k + size - $k). c(p) of a run is the number of layers h with
-- count_t(p) >= h in every member, so each (transaction, node, layer) row finds how far its
-- layer continues unbroken down the order (an island of consecutive positions), and a run
-- gains w(p) for every layer of its first member that reaches its last one.
CREATE OR REPLACE TABLE clump_segment AS
WITH layer AS (
    SELECT o.pos, tc.node, h.layer, tc.w
    FROM clump_order AS o
    JOIN tx_count AS tc ON tc.tid = o.tid,
    range(1, tc.cnt + 1) AS h(layer)
    WHERE tc.w > 0
), island AS (
    SELECT pos, node, layer, w,
           pos - row_number() OVER (PARTITION BY node, layer ORDER BY pos) AS island
    FROM layer
), reach AS (
    -- how many consecutive positions from pos on hold this layer (at most 2k - 1 matter)
    SELECT pos, w,
           least(max(pos) OVER (PARTITION BY node, layer, island) - pos + 1, 2 * $k - 1) AS reach
    FROM island
), gain_by_reach AS (
    SELECT pos, reach, sum(w) AS w FROM reach WHERE reach >= $k GROUP BY pos, reach
), gain AS (
    SELECT g.pos, s.size, sum(g.w) AS gain
    FROM gain_by_reach AS g
    JOIN range($k, 2 * $k) AS s(size) ON g.reach >= s.size
    GROUP BY g.pos, s.size
), items_before AS (
    SELECT pos, sum(len) OVER (ORDER BY pos) - len AS before, sum(len) OVER (ORDER BY pos) AS upto
    FROM clump_order
)
SELECT CAST(o.pos * $k + s.size - $k AS BIGINT) AS slot, o.pos, CAST(s.size AS INTEGER) AS size,
       CAST((last.upto - o.before) * $scale - s.size * coalesce(g.gain, 0) AS BIGINT) AS cost
FROM items_before AS o
JOIN range($k, 2 * $k) AS s(size) ON o.pos + s.size <= (SELECT count(*) FROM clump_order)
JOIN items_before AS last ON last.pos = o.pos + s.size - 1
LEFT JOIN gain AS g ON g.pos = o.pos AND g.size = s.size
ORDER BY slot;

-- name: clump_segment_read
-- Every candidate run's cost by its slot (pos * $k + size - $k), for the cheapest tiling.
SELECT slot, cost FROM clump_segment;

-- name: clump_clusters_of_runs
-- cluster_of from the chosen runs `clump_run(pos, cluster)`: each transaction joins the run
-- that starts at or before its position.
CREATE OR REPLACE TABLE cluster_of AS
SELECT o.tid, r.cluster
FROM clump_order AS o
ASOF JOIN clump_run AS r ON o.pos >= r.pos
ORDER BY o.tid;

-- name: clump_swap_touched_start
-- The phase in which each cluster last changed (none yet): a pair whose two clusters are
-- unchanged since the same pairing one pass earlier would find the same nothing again.
CREATE OR REPLACE TABLE clump_touched (cluster INTEGER PRIMARY KEY, phase INTEGER);

-- name: clump_swap_state_start
-- Every cluster's exchange state (members, nodes, cost, leave-one-out, misfits) is kept from
-- phase to phase and refreshed only for the clusters an exchange changed (`clump_dirty`);
-- at the start every cluster is dirty.
CREATE OR REPLACE TABLE clump_dirty AS
SELECT DISTINCT cluster FROM cluster_of;
CREATE OR REPLACE TABLE clump_swap_member (tid BIGINT, cluster INTEGER, len BIGINT);
CREATE OR REPLACE TABLE clump_swap_node (
    cluster INTEGER, node INTEGER, w BIGINT, present BIGINT, counts INTEGER[]
);
CREATE OR REPLACE TABLE clump_swap_cost (cluster INTEGER, size BIGINT, items BIGINT, cost BIGINT);
CREATE OR REPLACE TABLE clump_swap_loo (
    cluster INTEGER, out BIGINT, node INTEGER, w BIGINT, c INTEGER
);
CREATE OR REPLACE TABLE clump_swap_misfit (cluster INTEGER, tid BIGINT, len BIGINT);

-- name: clump_swap_sides
-- One phase of the improvement pass pairs clusters $d apart in the order (cluster a with
-- a + $d, a // $d of parity $parity, so no cluster is in two pairs): each side of a pair with
-- its partner, its pair's a, and its size and item occurrences. Phase $phase of a pass of
-- $period phases: after the first pass, only pairs with a cluster changed by or since this
-- pairing was last tried (phase $phase - $period) are tried again.
CREATE OR REPLACE TABLE clump_swap_side AS
WITH pair AS (
    SELECT a.cluster AS a, b.cluster AS b
    FROM clump_swap_cost AS a
    JOIN clump_swap_cost AS b ON b.cluster = a.cluster + $d
    LEFT JOIN clump_touched AS ta ON ta.cluster = a.cluster
    LEFT JOIN clump_touched AS tb ON tb.cluster = b.cluster
    WHERE (a.cluster // $d) % 2 = $parity
      AND ($phase < $period OR greatest(ta.phase, tb.phase) >= $phase - $period)
)
SELECT p.a AS cluster, p.b AS partner, p.a, c.size, c.items
FROM pair AS p JOIN clump_swap_cost AS c ON c.cluster = p.a
UNION ALL
SELECT p.b, p.a, p.a, c.size, c.items
FROM pair AS p JOIN clump_swap_cost AS c ON c.cluster = p.b;

-- name: clump_swap_members
-- The members of the dirty clusters, with their length.
INSERT INTO clump_swap_member
SELECT co.tid, co.cluster, o.len
FROM cluster_of AS co
JOIN clump_order AS o ON o.tid = co.tid
SEMI JOIN clump_dirty AS d ON d.cluster = co.cluster;

-- name: clump_swap_nodes
-- Per dirty cluster and node: members with items under it and their counts, sorted.
INSERT INTO clump_swap_node
SELECT m.cluster, tc.node, any_value(tc.w) AS w, count(*) AS present,
       list_sort(list(tc.cnt)) AS counts
FROM clump_swap_member AS m
JOIN tx_count AS tc ON tc.tid = m.tid
SEMI JOIN clump_dirty AS d ON d.cluster = m.cluster
WHERE tc.w > 0
GROUP BY m.cluster, tc.node;

-- name: clump_swap_costs
-- Each dirty cluster's size, item occurrences and cost, GGD * (M - 1).
INSERT INTO clump_swap_cost
WITH cluster AS (
    SELECT m.cluster, count(*) AS size, sum(m.len) AS items
    FROM clump_swap_member AS m
    SEMI JOIN clump_dirty AS d ON d.cluster = m.cluster
    GROUP BY m.cluster
)
SELECT s.cluster, s.size, s.items,
       s.items * $scale - s.size * coalesce(sum(n.w * n.counts[1]), 0) AS cost
FROM cluster AS s
LEFT JOIN clump_swap_node AS n ON n.cluster = s.cluster AND n.present = s.size
GROUP BY s.cluster, s.size, s.items;

-- name: clump_swap_leave_one_out
-- c(p) of a dirty cluster without member `out`, where above 0: with the counts of p sorted,
-- the second smallest where the member held the smallest, and the smallest where it was the
-- one member without p.
INSERT INTO clump_swap_loo
WITH member AS (
    SELECT m.cluster, m.tid
    FROM clump_swap_member AS m
    SEMI JOIN clump_dirty AS d ON d.cluster = m.cluster
), member_count AS (
    -- the dirty members' counts only, so the anti join below need not hash all of tx_count
    SELECT m.tid, tc.node, tc.cnt
    FROM member AS m
    JOIN tx_count AS tc ON tc.tid = m.tid
    WHERE tc.w > 0
)
SELECT m.cluster, m.tid AS out, n.node, n.w,
       CASE WHEN tc.cnt = n.counts[1] THEN n.counts[2] ELSE n.counts[1] END AS c
FROM member AS m
JOIN clump_swap_cost AS c ON c.cluster = m.cluster
JOIN clump_swap_node AS n ON n.cluster = m.cluster AND n.present = c.size
JOIN member_count AS tc ON tc.tid = m.tid AND tc.node = n.node
UNION ALL
SELECT m.cluster, m.tid, n.node, n.w, n.counts[1]
FROM member AS m
JOIN clump_swap_cost AS c ON c.cluster = m.cluster
JOIN clump_swap_node AS n ON n.cluster = m.cluster AND n.present = c.size - 1
ANTI JOIN member_count AS tc ON tc.tid = m.tid AND tc.node = n.node;

-- name: clump_swap_misfits
-- The $outs members of each dirty cluster whose leaving would save it most: the only ones
-- offered for exchange.
INSERT INTO clump_swap_misfit
WITH kept AS (
    SELECT l.cluster, l.out, sum(l.w * l.c) AS gain
    FROM clump_swap_loo AS l
    SEMI JOIN clump_dirty AS d ON d.cluster = l.cluster
    GROUP BY l.cluster, l.out
)
SELECT m.cluster, m.tid, m.len
FROM clump_swap_member AS m
SEMI JOIN clump_dirty AS d ON d.cluster = m.cluster
JOIN clump_swap_cost AS c ON c.cluster = m.cluster
LEFT JOIN kept AS k ON k.cluster = m.cluster AND k.out = m.tid
QUALIFY row_number() OVER (
    PARTITION BY m.cluster
    ORDER BY c.cost - (c.items - m.len) * $scale + (c.size - 1) * coalesce(k.gain, 0) DESC,
             m.tid
) <= $outs;

-- name: clump_swap_choices
-- Each pair's best exchange, a swap of two misfits or a move of one from a cluster above $k
-- members, when it lowers the pair's summed GGD * (M - 1).
CREATE OR REPLACE TABLE clump_swap AS
WITH exchange AS (
    -- every way a side can change: a misfit out for one of its partner's in (swap), a misfit
    -- out (move away), or one of its partner's misfits in (move here)
    SELECT s.cluster, s.a, o.tid AS out, i.tid AS inn
    FROM clump_swap_side AS s
    JOIN clump_swap_misfit AS o ON o.cluster = s.cluster
    JOIN clump_swap_misfit AS i ON i.cluster = s.partner
    UNION ALL
    SELECT s.cluster, s.a, o.tid, NULL
    FROM clump_swap_side AS s
    JOIN clump_swap_misfit AS o ON o.cluster = s.cluster
    WHERE s.size > $k
    UNION ALL
    SELECT s.cluster, s.a, NULL, i.tid
    FROM clump_swap_side AS s
    JOIN clump_swap_side AS p ON p.cluster = s.partner
    JOIN clump_swap_misfit AS i ON i.cluster = s.partner
    WHERE p.size > $k
), kept AS (
    -- sum of w(p) * c(p) over the changed side: leave-one-out c(p) capped by the newcomer
    SELECT e.cluster, e.out, e.inn, sum(l.w * least(l.c, tc.cnt)) AS gain
    FROM exchange AS e
    JOIN clump_swap_loo AS l ON l.cluster = e.cluster AND l.out = e.out
    JOIN tx_count AS tc ON tc.tid = e.inn AND tc.node = l.node
    GROUP BY e.cluster, e.out, e.inn
    UNION ALL
    SELECT e.cluster, e.out, NULL, sum(l.w * l.c)
    FROM exchange AS e
    JOIN clump_swap_loo AS l ON l.cluster = e.cluster AND l.out = e.out
    WHERE e.inn IS NULL
    GROUP BY e.cluster, e.out
    UNION ALL
    SELECT e.cluster, NULL, e.inn, sum(n.w * least(n.counts[1], tc.cnt))
    FROM exchange AS e
    JOIN clump_swap_cost AS c ON c.cluster = e.cluster
    JOIN clump_swap_node AS n ON n.cluster = e.cluster AND n.present = c.size
    JOIN tx_count AS tc ON tc.tid = e.inn AND tc.node = n.node
    WHERE e.out IS NULL
    GROUP BY e.cluster, e.inn
), change AS (
    -- the change of one side's cost
    SELECT e.a, e.out, e.inn, e.cluster,
           (c.items - coalesce(lo.len, 0) + coalesce(li.len, 0)) * $scale
               - (c.size - (e.out IS NOT NULL)::INTEGER + (e.inn IS NOT NULL)::INTEGER)
                 * coalesce(k.gain, 0)
               - c.cost AS delta
    FROM exchange AS e
    JOIN clump_swap_cost AS c ON c.cluster = e.cluster
    LEFT JOIN kept AS k
        ON k.cluster = e.cluster AND k.out IS NOT DISTINCT FROM e.out
        AND k.inn IS NOT DISTINCT FROM e.inn
    LEFT JOIN clump_swap_misfit AS lo ON lo.tid = e.out
    LEFT JOIN clump_swap_misfit AS li ON li.tid = e.inn
)
-- a pair's exchange seen from side a (x leaves a, y leaves b) and from side b (y out, x in)
SELECT ca.a, cb.cluster AS b, ca.out AS x, ca.inn AS y, ca.delta + cb.delta AS delta
FROM change AS ca
JOIN change AS cb
    ON cb.a = ca.a AND cb.cluster <> ca.a
    AND cb.out IS NOT DISTINCT FROM ca.inn AND cb.inn IS NOT DISTINCT FROM ca.out
WHERE ca.cluster = ca.a AND ca.delta + cb.delta < 0
QUALIFY row_number() OVER (
    PARTITION BY ca.a ORDER BY ca.delta + cb.delta, ca.out NULLS FIRST, ca.inn NULLS FIRST
) = 1;

-- name: clump_apply_swaps
-- Carry out the phase's chosen exchanges.
UPDATE cluster_of
SET cluster = moved.cluster
FROM (
    SELECT x AS tid, b AS cluster FROM clump_swap WHERE x IS NOT NULL
    UNION ALL
    SELECT y, a FROM clump_swap WHERE y IS NOT NULL
) AS moved
WHERE cluster_of.tid = moved.tid;

-- name: clump_swap_summary
-- How many exchanges a phase chose (`chosen`) and their summed cost change (`delta`).
SELECT count(*) AS chosen, coalesce(sum(delta), 0) AS delta FROM clump_swap;

-- name: clump_swap_touch
-- Mark the clusters the phase's exchanges changed as changed in phase $phase.
INSERT OR REPLACE INTO clump_touched
SELECT a, $phase FROM clump_swap
UNION ALL
SELECT b, $phase FROM clump_swap;

-- name: clump_swap_dirty
-- The clusters whose exchange state the phase's exchanges made stale.
CREATE OR REPLACE TABLE clump_dirty AS
SELECT a AS cluster FROM clump_swap
UNION ALL
SELECT b FROM clump_swap;

-- name: clump_swap_forget_dirty
-- Forget the exchange state of the clusters in `clump_dirty`, before it is computed anew.
DELETE FROM clump_swap_member WHERE cluster IN (SELECT cluster FROM clump_dirty);
DELETE FROM clump_swap_node WHERE cluster IN (SELECT cluster FROM clump_dirty);
DELETE FROM clump_swap_cost WHERE cluster IN (SELECT cluster FROM clump_dirty);
DELETE FROM clump_swap_loo WHERE cluster IN (SELECT cluster FROM clump_dirty);
DELETE FROM clump_swap_misfit WHERE cluster IN (SELECT cluster FROM clump_dirty);

-- name: clump_seeds
-- One cluster per whole block, numbered as its block, seeded by the block's middle transaction.
CREATE OR REPLACE TABLE cluster_of AS
SELECT tid, block AS cluster
FROM clump_order
WHERE pos % $k = $k // 2 AND block < $clusters
ORDER BY cluster;

-- name: clump_free
-- Transactions not yet in a cluster, with their block and length.
CREATE OR REPLACE TABLE clump_free AS
SELECT o.tid, o.block, o.len
FROM clump_order AS o
ANTI JOIN cluster_of AS co ON co.tid = o.tid
ORDER BY o.tid;

-- name: clump_start_counts
-- c(p) of every seeded cluster: its seed's counts.
CREATE OR REPLACE TABLE cluster_count AS
SELECT co.cluster, tc.node, tc.cnt AS c, tc.w
FROM cluster_of AS co
JOIN tx_count AS tc ON tc.tid = co.tid
ORDER BY co.cluster, tc.node;

-- name: clump_start_clusters
-- Every cluster's reach (in blocks), size, item occurrences and sum of c(p) * w(p).
CREATE OR REPLACE TABLE clump_cluster AS
WITH gain AS (
    SELECT cluster, sum(c * w) AS gain FROM cluster_count GROUP BY cluster
)
SELECT co.cluster, CAST($reach AS INTEGER) AS reach, 1 AS size,
       CAST(o.len AS BIGINT) AS items, g.gain
FROM cluster_of AS co
JOIN clump_order AS o ON o.tid = co.tid
JOIN gain AS g ON g.cluster = co.cluster
ORDER BY co.cluster;

-- name: clump_no_candidates
-- No cluster has a shortlist yet.
CREATE OR REPLACE TABLE clump_candidates (cluster INTEGER, tid BIGINT, delta BIGINT);

-- name: clump_pool_growth
-- Candidates of a growth round: an open cluster's shortlist from the last round (the members
-- still free), or, once that is used up, every free transaction of the blocks within its reach.
CREATE OR REPLACE TABLE clump_pool AS
WITH listed AS (
    SELECT c.cluster, c.tid
    FROM clump_candidates AS c
    JOIN clump_cluster AS s ON s.cluster = c.cluster
    SEMI JOIN clump_free AS f ON f.tid = c.tid
    WHERE s.size < $k
), refill AS (
    SELECT s.cluster, b.block
    FROM clump_cluster AS s
    ANTI JOIN listed AS l ON l.cluster = s.cluster,
    range(s.cluster - s.reach, s.cluster + s.reach + 1) AS b(block)
    WHERE s.size < $k
)
SELECT cluster, tid FROM listed
UNION ALL
SELECT r.cluster, f.tid
FROM refill AS r
JOIN clump_free AS f ON f.block = r.block;

-- name: clump_pool_remainder
-- Candidates for the transactions left over: every cluster within $reach blocks.
CREATE OR REPLACE TABLE clump_pool AS
WITH reached AS (
    SELECT f.tid, b.block
    FROM clump_free AS f, range(f.block - $reach, f.block + $reach + 1) AS b(block)
)
SELECT s.cluster, r.tid
FROM reached AS r
JOIN clump_cluster AS s ON s.cluster = r.block;

-- name: clump_cluster_sizes
-- How many clusters are still open (under $k transactions) and how many are complete.
SELECT count(*) FILTER (WHERE size < $k) AS open, count(*) FILTER (WHERE size >= $k) AS complete
FROM clump_cluster;

-- name: clump_stuck
-- Open clusters that found no candidate this round.
CREATE OR REPLACE TABLE clump_stuck AS
SELECT s.cluster
FROM clump_cluster AS s
ANTI JOIN clump_candidates AS c ON c.cluster = s.cluster
WHERE s.size < $k
ORDER BY s.cluster;

-- name: clump_dissolve_free
-- A stuck cluster's members become free again.
INSERT INTO clump_free
SELECT o.tid, o.block, o.len
FROM cluster_of AS co
JOIN clump_stuck AS x ON x.cluster = co.cluster
JOIN clump_order AS o ON o.tid = co.tid;

-- name: clump_dissolve_members
-- Forget the stuck clusters' memberships.
DELETE FROM cluster_of
WHERE cluster IN (SELECT cluster FROM clump_stuck);

-- name: clump_dissolve_counts
-- Forget the stuck clusters' counts.
DELETE FROM cluster_count
WHERE cluster IN (SELECT cluster FROM clump_stuck);

-- name: clump_dissolve_clusters
-- Forget the stuck clusters.
DELETE FROM clump_cluster
WHERE cluster IN (SELECT cluster FROM clump_stuck);

-- name: clump_candidate_costs
-- For every pool pair, how much adding the transaction raises its cluster's GGD, times (M - 1).
CREATE OR REPLACE TABLE clump_candidates AS
WITH pair_node AS MATERIALIZED (
    -- every pair with the nodes its cluster has items under (materialized: joining the counts
    -- on node alone first would pair every cluster with every transaction)
    SELECT p.cluster, p.tid, cc.node, cc.c
    FROM clump_pool AS p
    JOIN cluster_count AS cc ON cc.cluster = p.cluster
), joined AS (
    SELECT pn.cluster, pn.tid, sum(least(pn.c, tc.cnt) * tc.w) AS gain
    FROM pair_node AS pn
    JOIN tx_count AS tc ON tc.tid = pn.tid AND tc.node = pn.node
    GROUP BY pn.cluster, pn.tid
)
SELECT j.cluster, j.tid,
       (s.items + f.len) * $scale - (s.size + 1) * j.gain - (s.items * $scale - s.size * s.gain)
           AS delta
FROM joined AS j
JOIN clump_cluster AS s ON s.cluster = j.cluster
JOIN clump_free AS f ON f.tid = j.tid
QUALIFY row_number() OVER (PARTITION BY j.cluster ORDER BY delta, j.tid) <= $keep;

-- name: clump_round_start
-- A round's additions, filled by clump_choice_growth.
CREATE OR REPLACE TABLE clump_round (cluster INTEGER, tid BIGINT, delta BIGINT);

-- name: clump_choice_growth
-- One matching pass of a growth round: every candidate not yet taken goes to the cheapest
-- cluster that still has room this round (at most $batch additions, up to k members), and each
-- cluster takes the cheapest of the candidates it won (ties by cluster, then tid).
INSERT INTO clump_round
WITH room AS (
    SELECT s.cluster, least($batch, $k - s.size) - count(r.tid) AS room
    FROM clump_cluster AS s
    LEFT JOIN clump_round AS r ON r.cluster = s.cluster
    WHERE s.size < $k
    GROUP BY s.cluster, s.size
    HAVING room > 0
), won AS (
    SELECT c.cluster, c.tid, c.delta, room.room
    FROM clump_candidates AS c
    JOIN room ON room.cluster = c.cluster
    ANTI JOIN clump_round AS r ON r.tid = c.tid
    QUALIFY row_number() OVER (PARTITION BY c.tid ORDER BY c.delta, c.cluster) = 1
)
SELECT cluster, tid, delta
FROM won
QUALIFY row_number() OVER (PARTITION BY cluster ORDER BY delta, tid) <= room;

-- name: clump_choice_remainder
-- Each remaining transaction joins the cluster where it costs least (ties by cluster).
CREATE OR REPLACE TABLE clump_round AS
SELECT cluster, tid, delta
FROM clump_candidates
QUALIFY row_number() OVER (PARTITION BY tid ORDER BY delta, cluster) = 1;

-- name: clump_add_members
-- Record a round's additions.
INSERT INTO cluster_of
SELECT tid, cluster FROM clump_round;

-- name: clump_update_counts
-- c(p) after a round: the minimum with each added transaction's count, dropping nodes that an
-- added transaction has no item under.
CREATE OR REPLACE TABLE cluster_count AS
WITH added AS (
    SELECT cluster, count(*) AS n FROM clump_round GROUP BY cluster
), added_count AS (
    SELECT r.cluster, tc.node, min(tc.cnt) AS c, count(*) AS n
    FROM clump_round AS r
    JOIN tx_count AS tc ON tc.tid = r.tid
    GROUP BY r.cluster, tc.node
)
SELECT cc.cluster, cc.node, CAST(least(cc.c, coalesce(ac.c, cc.c)) AS INTEGER) AS c, cc.w
FROM cluster_count AS cc
LEFT JOIN added AS a ON a.cluster = cc.cluster
LEFT JOIN added_count AS ac ON ac.cluster = cc.cluster AND ac.node = cc.node
WHERE a.cluster IS NULL OR ac.n = a.n
ORDER BY cc.cluster, cc.node;

-- name: clump_update_clusters
-- Sizes, item occurrences and gains after a round; an open cluster that found no candidate
-- doubles its reach (capped at the number of blocks).
CREATE OR REPLACE TABLE clump_cluster AS
WITH added AS (
    SELECT r.cluster, count(*) AS n, sum(f.len) AS len
    FROM clump_round AS r
    JOIN clump_free AS f ON f.tid = r.tid
    GROUP BY r.cluster
), searched AS (
    SELECT DISTINCT cluster FROM clump_candidates
), gain AS (
    SELECT cluster, sum(c * w) AS gain FROM cluster_count GROUP BY cluster
)
SELECT s.cluster,
       CASE WHEN s.size < $k AND se.cluster IS NULL THEN least(2 * s.reach, $blocks) ELSE s.reach END
           AS reach,
       s.size + coalesce(a.n, 0) AS size,
       CAST(s.items + coalesce(a.len, 0) AS BIGINT) AS items,
       g.gain
FROM clump_cluster AS s
JOIN gain AS g ON g.cluster = s.cluster
LEFT JOIN added AS a ON a.cluster = s.cluster
LEFT JOIN searched AS se ON se.cluster = s.cluster
ORDER BY s.cluster;

-- name: clump_remove_free
-- Drop a round's additions from the free transactions.
DELETE FROM clump_free
WHERE tid IN (SELECT tid FROM clump_round);
