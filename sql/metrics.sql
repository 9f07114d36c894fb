-- name: information_loss_span
-- The transaction ids and item instances of the data: how many tid ranges
-- `information_loss_part` is run over (metrics.py).
SELECT (SELECT min(tid) FROM tids) AS first_tid, (SELECT max(tid) FROM tids) AS last_tid,
       (SELECT count(*) FROM tx) AS instances;

-- name: information_loss_part
-- NCP and LM summed over the original item instances of the transactions $lo..$hi: each
-- instance is charged the cost of the most specific released node covering it, or 1 (the
-- root's cost) when it is suppressed (no node covers it). A node covers the items of its
-- preorder range id..last, so cover is a range test within the transaction; the statement does
-- not read `closure`: joined to the release on its ancestor side, closure pairs every released
-- node with its whole subtree, which DuckDB chose on 88,162 retail baskets (908 million rows,
-- 14.9 s of a 17 s run; issue 26). The left join keeps that order: the release is joined to
-- `node` first, then each transaction's items are matched to its released nodes only. A
-- repeated release row only repeats a node in a min(), so the release is not made distinct.
-- Why a range of transactions: the grouping holds every instance of it, and at 10^8
-- transactions (439 M instances) one statement's hash tables overflowed a 32 GB spill cap
-- (metrics.PART_INSTANCES).
WITH cover AS (
    SELECT t.tid, t.item, min(c.ncp) AS ncp, min(c.lm) AS lm
    FROM tx AS t
    LEFT JOIN (
        SELECT r.tid, n.id, n.last, n.ncp, n.lm
        FROM release AS r
        JOIN node AS n ON n.id = r.node
        WHERE r.tid BETWEEN $lo AND $hi
    ) AS c ON c.tid = t.tid AND t.item BETWEEN c.id AND c.last
    WHERE t.tid BETWEEN $lo AND $hi
    GROUP BY t.tid, t.item
)
SELECT count(*) AS instances, count(ncp) AS covered,
       coalesce(sum(ncp), 0)::DOUBLE AS ncp, coalesce(sum(lm), 0)::DOUBLE AS lm
FROM cover;

-- name: information_loss
-- NCP and LM averaged over original item instances, from the sums of information_loss_part
-- over every range of transactions ($instances, $covered, $ncp, $lm): a suppressed instance
-- costs 1.
SELECT $instances::BIGINT AS instances,
       coalesce(($ncp::DOUBLE + ($instances::BIGINT - $covered::BIGINT))
                / nullif($instances::BIGINT, 0), 0) AS ncp,
       coalesce(($lm::DOUBLE + ($instances::BIGINT - $covered::BIGINT))
                / nullif($instances::BIGINT, 0), 0) AS lm,
       $instances::BIGINT - $covered::BIGINT AS suppressed,
       (SELECT count(*) FROM release) AS released_items,
       (SELECT count(*) FROM tids) AS transactions;

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
