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
-- Transactions in similarity order: by length, then by their items in preorder, then tid.
CREATE OR REPLACE TABLE clump_order AS
SELECT tid, len, CAST(row_number() OVER (ORDER BY len, items, tid) - 1 AS BIGINT) AS pos
FROM (SELECT tid, count(*) AS len, list(item ORDER BY item) AS items FROM tx GROUP BY tid)
ORDER BY pos;

-- name: clump_seeds
-- One cluster per block of $k positions, seeded by the block's middle transaction.
CREATE OR REPLACE TABLE cluster_of AS
SELECT tid, CAST(pos // $k AS INTEGER) AS cluster
FROM clump_order
WHERE pos % $k = $k // 2 AND pos // $k < $clusters
ORDER BY cluster;

-- name: clump_free
-- Transactions not yet in a cluster, with their position and length.
CREATE OR REPLACE TABLE clump_free AS
SELECT o.tid, o.pos, o.len
FROM clump_order AS o
ANTI JOIN cluster_of AS co ON co.tid = o.tid
ORDER BY o.pos;

-- name: clump_start_counts
-- c(p) of every seeded cluster: its seed's counts.
CREATE OR REPLACE TABLE cluster_count AS
SELECT co.cluster, tc.node, tc.cnt AS c, tc.w
FROM cluster_of AS co
JOIN tx_count AS tc ON tc.tid = co.tid
ORDER BY co.cluster, tc.node;

-- name: clump_start_clusters
-- Every cluster's seed position, search radius, size, item occurrences and sum of c(p) * w(p).
CREATE OR REPLACE TABLE clump_cluster AS
WITH gain AS (
    SELECT cluster, sum(c * w) AS gain FROM cluster_count GROUP BY cluster
)
SELECT co.cluster, o.pos AS seed_pos, CAST($radius AS BIGINT) AS radius, 1 AS size,
       CAST(o.len AS BIGINT) AS items, g.gain
FROM cluster_of AS co
JOIN clump_order AS o ON o.tid = co.tid
JOIN gain AS g ON g.cluster = co.cluster
ORDER BY co.cluster;

-- name: clump_pool_growth
-- Candidates of a growth round: free transactions within each open cluster's radius.
CREATE OR REPLACE TABLE clump_pool AS
SELECT s.cluster, f.tid
FROM clump_cluster AS s
JOIN clump_free AS f ON f.pos BETWEEN s.seed_pos - s.radius AND s.seed_pos + s.radius
WHERE s.size < $k;

-- name: clump_pool_remainder
-- Candidates for the last (< k) free transactions: every cluster.
CREATE OR REPLACE TABLE clump_pool AS
SELECT s.cluster, f.tid
FROM clump_cluster AS s
CROSS JOIN clump_free AS f;

-- name: clump_candidate_costs
-- For every pool pair, how much adding the transaction raises its cluster's GGD, times (M - 1).
CREATE OR REPLACE TABLE clump_candidates AS
WITH joined AS (
    SELECT p.cluster, p.tid, sum(least(cc.c, tc.cnt) * tc.w) AS gain
    FROM clump_pool AS p
    JOIN cluster_count AS cc ON cc.cluster = p.cluster
    JOIN tx_count AS tc ON tc.tid = p.tid AND tc.node = cc.node
    GROUP BY p.cluster, p.tid
)
SELECT j.cluster, j.tid,
       (s.items + f.len) * $scale - (s.size + 1) * j.gain - (s.items * $scale - s.size * s.gain)
           AS delta
FROM joined AS j
JOIN clump_cluster AS s ON s.cluster = j.cluster
JOIN clump_free AS f ON f.tid = j.tid;

-- name: clump_choice_growth
-- A growth round's additions: each open cluster's cheapest candidate, given to the cheapest
-- proposer when several clusters want it (ties by tid, then cluster).
CREATE OR REPLACE TABLE clump_round AS
WITH proposal AS (
    SELECT cluster, tid, delta
    FROM clump_candidates
    QUALIFY row_number() OVER (PARTITION BY cluster ORDER BY delta, tid) = 1
)
SELECT cluster, tid, delta
FROM proposal
QUALIFY row_number() OVER (PARTITION BY tid ORDER BY delta, cluster) = 1;

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
-- doubles its radius (capped at the number of transactions).
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
SELECT s.cluster, s.seed_pos,
       CASE WHEN s.size < $k AND se.cluster IS NULL THEN least(2 * s.radius, $n) ELSE s.radius END
           AS radius,
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
