-- name: information_loss
-- NCP and LM averaged over original item instances: each instance is charged the cost of the
-- most specific released node covering it, or 1 (the root's cost) when it is suppressed.
WITH cover AS (
    SELECT t.tid, t.item, min(n.ncp) AS ncp, min(n.lm) AS lm
    FROM tx AS t
    JOIN closure AS a ON a.node = t.item
    JOIN (SELECT DISTINCT tid, node FROM release) AS r ON r.tid = t.tid AND r.node = a.ancestor
    JOIN node AS n ON n.id = r.node
    GROUP BY t.tid, t.item
)
SELECT count(*) AS instances,
       coalesce(sum(coalesce(c.ncp, 1.0)) / nullif(count(*), 0), 0) AS ncp,
       coalesce(sum(coalesce(c.lm, 1.0)) / nullif(count(*), 0), 0) AS lm,
       count(*) FILTER (WHERE c.ncp IS NULL) AS suppressed,
       (SELECT count(*) FROM release) AS released_items,
       (SELECT count(*) FROM tids) AS transactions
FROM tx AS t
LEFT JOIN cover AS c USING (tid, item);

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
