-- name: information_loss
-- NCP and LM averaged over original item instances: each instance is charged the cost of the
-- most specific released node covering it, or 1 (the root's cost) when it is suppressed. The
-- suppressed are counted as the instances no node covers, not found by joining tx back to the
-- covered ones (WV2 Partition: ~110 -> ~70 ms). A repeated release row only repeats a node in
-- a min(), so the release is not made distinct.
WITH cover AS (
    SELECT t.tid, t.item, min(n.ncp) AS ncp, min(n.lm) AS lm
    FROM tx AS t
    JOIN closure AS a ON a.node = t.item
    JOIN release AS r ON r.tid = t.tid AND r.node = a.ancestor
    JOIN node AS n ON n.id = r.node
    GROUP BY t.tid, t.item
), covered AS (
    SELECT count(*) AS instances, coalesce(sum(ncp), 0) AS ncp, coalesce(sum(lm), 0) AS lm
    FROM cover
), original AS (
    SELECT count(*) AS instances FROM tx
)
SELECT o.instances,
       coalesce((c.ncp + (o.instances - c.instances)) / nullif(o.instances, 0), 0) AS ncp,
       coalesce((c.lm + (o.instances - c.instances)) / nullif(o.instances, 0), 0) AS lm,
       o.instances - c.instances AS suppressed,
       (SELECT count(*) FROM release) AS released_items,
       (SELECT count(*) FROM tids) AS transactions
FROM original AS o, covered AS c;

-- name: information_loss_multiset
-- The same figures for a multiset release: each released copy stands for one original item of
-- its own and is charged its node's cost; the items no copy stands for are suppressed (cost 1).
WITH released AS (
    SELECT count(*) AS copies, coalesce(sum(n.ncp), 0) AS ncp, coalesce(sum(n.lm), 0) AS lm
    FROM release AS r
    JOIN node AS n ON n.id = r.node
), original AS (
    SELECT count(*) AS instances FROM tx
)
SELECT o.instances,
       coalesce((r.ncp + (o.instances - r.copies)) / nullif(o.instances, 0), 0) AS ncp,
       coalesce((r.lm + (o.instances - r.copies)) / nullif(o.instances, 0), 0) AS lm,
       o.instances - r.copies AS suppressed,
       r.copies AS released_items,
       (SELECT count(*) FROM tids) AS transactions
FROM released AS r, original AS o;
