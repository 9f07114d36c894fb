-- What a release is worth and what it exposes: itemset-support query workloads answered from
-- the release under the uniform assumption (COAT, KAIS 2011; PCTA, CIKM 2011) and attacks by an
-- adversary who knows some items of a target. The probes, their scores and the released classes
-- are kept in the run's schema (eval_probes, eval_frequent, eval_classes, eval_queries,
-- eval_attacks); the steps between them are temporary tables of the connection.
-- Randomness is seeded: hash(..., $seed) orders the draws, so a seed gives the same workload on
-- the same data with the same DuckDB version.

-- name: eval_probes_create
-- The probes, empty: query itemsets of a workload ('random', 'frequent') and attacks ('attack',
-- `tid` the target, `itemset` the items the adversary knows; a random itemset's `tid` is the
-- transaction it was drawn from); `size` is the itemset's size;
-- `actual` the support in the original when it is known already (frequent itemsets).
CREATE OR REPLACE TABLE eval_probes (
    workload VARCHAR, size INTEGER, qid BIGINT, tid BIGINT, itemset INTEGER[], actual BIGINT
);

-- name: eval_lengths
-- Every transaction's number of items, for the draws of eval_subsets (made once: the queries'
-- and the attacks' draws read it, a grouping of every item instance each time otherwise).
CREATE OR REPLACE TEMP TABLE eval_lengths AS
SELECT tid, count(*) AS items FROM tx GROUP BY tid;

-- name: eval_subsets
-- For each size in $sizes, the first $limit transactions with at least that many items in a
-- random order (`draw`, ties by tid), each with one random subset of that size (`itemset`,
-- sorted). The draws depend on the transaction alone, so a larger $limit only adds later ones.
-- The first $limit of a size are taken by a top-$limit aggregate (min_by with a count), which
-- keeps a heap of $limit rows per size: a window ordered every transaction of every size
-- (3 sizes of synthetic 10^7: 21.8 s of evaluate's 140). DuckDB caps that count below a
-- million ($top_cap); a larger $limit (a size short of distinct itemsets in a large dataset)
-- takes the window.
CREATE OR REPLACE TEMP TABLE eval_subsets AS
WITH sizes AS (
    SELECT unnest($sizes::INTEGER[]) AS size
), eligible AS NOT MATERIALIZED (
    SELECT s.size, l.tid, hash(l.tid, s.size, $seed, $salt) AS draw
    FROM sizes AS s
    JOIN eval_lengths AS l ON l.items >= s.size
), drawn AS (
    SELECT f.size, u.pick.tid AS tid, u.pick.draw AS draw
    FROM (
        SELECT size,
               min_by({'tid': tid, 'draw': draw}, {'draw': draw, 'tid': tid},
                      least($limit, $top_cap)) AS picks
        FROM eligible
        WHERE $limit <= $top_cap
        GROUP BY size
    ) AS f, unnest(f.picks) AS u(pick)
    UNION ALL
    SELECT size, tid, draw
    FROM eligible
    WHERE $limit > $top_cap
    QUALIFY row_number() OVER (PARTITION BY size ORDER BY draw, tid) <= $limit
), ranked AS (
    SELECT d.size, d.tid, d.draw, t.item,
           row_number() OVER (PARTITION BY d.size, d.tid
                              ORDER BY hash(t.tid, t.item, d.size, $seed, $salt), t.item) AS pos
    FROM drawn AS d
    JOIN tx AS t ON t.tid = d.tid
)
SELECT size, tid, list(item ORDER BY item) AS itemset, any_value(draw) AS draw
FROM ranked
WHERE pos <= size
GROUP BY size, tid;

-- name: eval_subsets_short
-- The sizes of $sizes whose drawn transactions gave fewer than $n distinct itemsets although
-- $limit were drawn (more transactions may give more).
SELECT size
FROM eval_subsets
GROUP BY size
HAVING count(DISTINCT itemset) < $n AND count(*) >= $limit
ORDER BY size;

-- name: eval_pick_random
-- The random workload: per size, the first $n distinct itemsets in the random order of the
-- transactions they were drawn from (`tid`: the first of those, which a sampled evaluation
-- counts for certain, sql/evaluate_sample.sql).
INSERT INTO eval_probes
SELECT 'random' AS workload, size,
       row_number() OVER (PARTITION BY size ORDER BY draw, itemset) AS qid,
       tid, itemset, NULL::BIGINT AS actual
FROM (
    SELECT size, itemset, min(draw) AS draw, arg_min(tid, (draw, tid)) AS tid
    FROM eval_subsets
    GROUP BY size, itemset
)
QUALIFY qid <= $n;

-- name: eval_pick_targets
-- The attacks: per number of known items, $n random targets with at least that many items,
-- each with the random subset of its items the adversary knows.
INSERT INTO eval_probes
SELECT 'attack' AS workload, size,
       row_number() OVER (PARTITION BY size ORDER BY draw, tid) AS qid,
       tid, itemset, NULL::BIGINT AS actual
FROM eval_subsets
QUALIFY qid <= $n;

-- name: eval_frequent_items
-- The original's frequent items: support of at least $minsup transactions (all of them: the
-- vocabulary bounds them).
CREATE OR REPLACE TABLE eval_frequent AS
SELECT 1 AS size, [item] AS itemset, count(*) AS support
FROM tx
GROUP BY item
HAVING count(*) >= $minsup;

-- name: eval_frequent_first
-- The first level of the mining: every frequent item, its id the item (`last`: its largest
-- item, the one an extension must exceed).
CREATE OR REPLACE TEMP TABLE eval_frequent_level AS
SELECT itemset[1]::BIGINT AS id, NULL::BIGINT AS parent, itemset, itemset[1] AS last, support
FROM eval_frequent
WHERE size = 1;

-- name: eval_frequent_tx
-- The original restricted to its frequent items: only they extend a frequent itemset.
CREATE OR REPLACE TEMP TABLE eval_frequent_tx AS
SELECT t.tid, t.item
FROM tx AS t
SEMI JOIN eval_frequent_level AS l ON l.id = t.item;

-- name: eval_frequent_first_holders
-- The transactions holding each frequent item.
CREATE OR REPLACE TEMP TABLE eval_frequent_holders AS
SELECT item::BIGINT AS id, tid, item AS last
FROM eval_frequent_tx;

-- name: eval_frequent_extend
-- The next level (Apriori: every subset of a frequent itemset is frequent): each kept itemset
-- of the previous level extended, in the transactions holding it, by a larger frequent item,
-- and counted; of those with support >= $minsup, the first $cap in the seeded random order of
-- the frequent workload are kept (every one while there are at most $cap), numbered in it.
CREATE OR REPLACE TEMP TABLE eval_frequent_level AS
WITH counted AS (
    SELECT h.id AS parent, t.item AS last, count(*) AS support
    FROM eval_frequent_holders AS h
    JOIN eval_frequent_tx AS t ON t.tid = h.tid AND t.item > h.last
    GROUP BY h.id, t.item
    HAVING count(*) >= $minsup
), extended AS (
    SELECT c.parent, list_append(p.itemset, c.last) AS itemset, c.last, c.support
    FROM counted AS c
    JOIN eval_frequent_level AS p ON p.id = c.parent
)
SELECT row_number() OVER (ORDER BY hash(itemset, $seed), itemset) AS id, parent, itemset, last,
       support
FROM extended
QUALIFY id <= $cap;

-- name: eval_frequent_keep
-- The kept itemsets of the level just counted join the frequent itemsets.
INSERT INTO eval_frequent
SELECT len(itemset) AS size, itemset, support
FROM eval_frequent_level;

-- name: eval_frequent_holders
-- The transactions holding each kept itemset of the level just counted, for the next level:
-- its parent's holders that hold its last item too (extended as in `eval_frequent_extend`,
-- then matched, which keeps the join as narrow as the count's).
CREATE OR REPLACE TEMP TABLE eval_frequent_holders AS
WITH extended AS (
    SELECT h.id AS parent, h.tid, t.item
    FROM eval_frequent_holders AS h
    JOIN eval_frequent_tx AS t ON t.tid = h.tid AND t.item > h.last
)
SELECT l.id, e.tid, l.last
FROM extended AS e
JOIN eval_frequent_level AS l ON l.parent = e.parent AND l.last = e.item;

-- name: eval_pick_frequent
-- The frequent workload: per size in $sizes, $n of the frequent itemsets in a random order.
INSERT INTO eval_probes
SELECT 'frequent' AS workload, size,
       row_number() OVER (PARTITION BY size ORDER BY hash(itemset, $seed), itemset) AS qid,
       NULL::BIGINT AS tid, itemset, support AS actual
FROM eval_frequent
WHERE list_contains($sizes::INTEGER[], size)
QUALIFY qid <= $n;

-- name: eval_classes
-- The distinct released transactions (`nodes` sorted, repeated for a multiset release; []
-- when nothing was released) and how many transactions were released as each, numbered:
-- the verifier's `release_classes` (statement k_anonymity_classes).
CREATE OR REPLACE TABLE eval_classes AS
SELECT row_number() OVER (ORDER BY itemset) AS cls, itemset AS nodes, support
FROM release_classes;

-- name: eval_actual_supports
-- The support in the original of every query probe whose support is not known yet (random
-- queries; attacks need none, frequent itemsets know theirs): an item's is its frequency; a
-- larger itemset's, the transactions holding its two least frequent items, found by a join of
-- each transaction with itself that keeps only the pairs some probe begins with (never every
-- transaction of a probe's rarest item, looked up for the next one: that probe-by-probe walk
-- visits a frequent item's transactions once per probe), and then holding the others too.
CREATE OR REPLACE TEMP TABLE eval_actual_supports AS
WITH probes AS (
    SELECT workload, size, qid, row_number() OVER () AS probe, itemset
    FROM eval_probes
    WHERE actual IS NULL AND workload <> 'attack'
), probe_items AS (
    SELECT probe, size, unnest(itemset) AS item FROM probes
), frequency AS (
    SELECT t.item, count(*) AS support
    FROM tx AS t
    SEMI JOIN probe_items AS p ON p.item = t.item
    GROUP BY t.item
), ranked AS (
    -- a probe with an item the original lacks drops out: its support is 0
    SELECT p.probe, p.size, p.item, f.support,
           row_number() OVER (PARTITION BY p.probe ORDER BY f.support, p.item) AS pos
    FROM probe_items AS p
    JOIN frequency AS f ON f.item = p.item
), firsts AS (
    -- each probe of 2+ items: its two least frequent items, in id order
    SELECT r1.probe, r1.size, least(r1.item, r2.item) AS lo, greatest(r1.item, r2.item) AS hi
    FROM ranked AS r1
    JOIN ranked AS r2 ON r2.probe = r1.probe AND r2.pos = 2
    WHERE r1.pos = 1
), pair_tx AS MATERIALIZED (
    -- the transactions holding some probe's first pair: a join within each transaction
    SELECT a.tid, a.item AS lo, b.item AS hi
    FROM (SELECT t.tid, t.item FROM tx AS t SEMI JOIN firsts AS f ON f.lo = t.item) AS a
    JOIN (SELECT t.tid, t.item FROM tx AS t SEMI JOIN firsts AS f ON f.hi = t.item) AS b
      ON b.tid = a.tid AND b.item > a.item
    SEMI JOIN firsts AS f ON f.lo = a.item AND f.hi = b.item
), pair_counts AS (
    SELECT lo, hi, count(*) AS support FROM pair_tx GROUP BY lo, hi
), longer AS (
    -- the transactions holding a longer probe's first pair and every other item of it
    SELECT f.probe, p.tid
    FROM firsts AS f
    JOIN pair_tx AS p ON p.lo = f.lo AND p.hi = f.hi
    JOIN ranked AS r ON r.probe = f.probe AND r.pos > 2
    JOIN tx AS t ON t.tid = p.tid AND t.item = r.item
    WHERE f.size > 2
    GROUP BY f.probe, p.tid
    HAVING count(*) = any_value(f.size) - 2
), counted AS (
    SELECT probe, support AS actual FROM ranked WHERE size = 1
    UNION ALL
    SELECT f.probe, c.support AS actual
    FROM firsts AS f
    JOIN pair_counts AS c ON c.lo = f.lo AND c.hi = f.hi
    WHERE f.size = 2
    UNION ALL
    SELECT probe, count(*) AS actual FROM longer GROUP BY probe
)
SELECT p.workload, p.size, p.qid, c.actual
FROM counted AS c
JOIN probes AS p ON p.probe = c.probe;

-- name: eval_scores
-- Every probe with its actual support (where one is needed), estimate and candidates.
CREATE OR REPLACE TEMP TABLE eval_scores AS
SELECT q.workload, q.size, q.qid,
       coalesce(q.actual, a.actual, 0) AS actual,
       coalesce(r.estimate, 0) AS estimate,
       coalesce(r.candidates, 0) AS candidates
FROM eval_probes AS q
LEFT JOIN eval_actual_supports AS a USING (workload, size, qid)
LEFT JOIN est_gen_scores AS r USING (workload, size, qid);

-- name: eval_queries
-- Every query with its actual and estimated support and relative error |act - est| / act.
CREATE OR REPLACE TABLE eval_queries AS
SELECT q.workload, q.size, q.qid, q.itemset, s.actual, s.estimate,
       abs(s.actual - s.estimate) / s.actual AS re
FROM eval_probes AS q
JOIN eval_scores AS s USING (workload, size, qid)
WHERE q.workload <> 'attack'
ORDER BY q.workload, q.size, q.qid;

-- name: eval_attacks
-- Every attack: the target, the items the adversary knows, and its candidates.
CREATE OR REPLACE TABLE eval_attacks AS
SELECT q.size AS known, q.qid AS attack, q.tid AS target, q.itemset AS known_items, s.candidates
FROM eval_probes AS q
JOIN eval_scores AS s USING (workload, size, qid)
WHERE q.workload = 'attack'
ORDER BY known, attack;

-- name: eval_info_drop
-- The record of the run's last evaluation goes first: a new one is under way.
DROP TABLE IF EXISTS eval_info;

-- name: eval_info_write
-- The record of the evaluation whose eval_* tables the run now holds, written last: its
-- workload and promise (JSON, as `setanon evaluate --json` prints them), loss and seconds.
CREATE OR REPLACE TABLE eval_info AS
SELECT $workload::VARCHAR AS workload, $model::VARCHAR AS model, $ncp::DOUBLE AS ncp,
       $lm::DOUBLE AS lm, $seconds::DOUBLE AS seconds;

-- name: eval_info_read
-- The record of the run's last evaluation.
SELECT workload, model, ncp, lm, seconds FROM eval_info;

-- name: eval_query_figures
-- Per workload and size: queries, mean and median relative error, the share with an error
-- above 50 %, the share underestimated. Both shares allow the estimates' rounding (1e-9): an
-- error of exactly 50 % (an estimate of half the support) is not above it, whatever order the
-- estimate's terms were summed in.
SELECT workload, size, count(*) AS queries,
       avg(re) AS are,
       median(re) AS median_re,
       avg(CASE WHEN re > 0.5 + 1e-9 THEN 1.0 ELSE 0.0 END) AS over_50,
       avg(CASE WHEN estimate < actual - 1e-9 THEN 1.0 ELSE 0.0 END) AS underestimated
FROM eval_queries
GROUP BY workload, size
ORDER BY workload, size;

-- name: eval_release_synthesized
-- A synthesized release file (`evaluate --release FILE --synthesized`, #44) as `release`: its
-- own transactions numbered 1.. in the order of their tid labels, its items the data's nodes.
CREATE OR REPLACE TABLE release AS
SELECT dense_rank() OVER (ORDER BY s.tid_label) AS tid, n.id AS node
FROM release_source AS s
JOIN node AS n ON n.label = s.label;

-- name: eval_query_sanity
-- Per workload and size: the ARE under the sanity bound of the differential-privacy itemset
-- literature (Chen et al., PVLDB 2011; Li et al., PrivBasis, PVLDB 2012): each query's error
-- over max(its actual support, $floor), $floor being the bound's share of the transactions, so
-- an itemset held by a handful of records (which no private release can or should answer)
-- weighs no more than one at the floor. The empty release scores 1 on a query at or above it.
SELECT workload, size, avg(abs(actual - estimate) / greatest(actual, $floor)) AS are_sanity
FROM eval_queries
GROUP BY workload, size
ORDER BY workload, size;

-- name: eval_attack_figures
-- Per number of known items: targets, the share of attacks left with 1..$k-1 candidates, with
-- exactly one, with none (the target's known items were suppressed), and the least and median
-- candidates among attacks that match at least one released transaction.
SELECT known, count(*) AS targets,
       avg(CASE WHEN candidates BETWEEN 1 AND $k - 1 THEN 1.0 ELSE 0.0 END) AS below_k,
       avg(CASE WHEN candidates = 1 THEN 1.0 ELSE 0.0 END) AS "unique",
       avg(CASE WHEN candidates = 0 THEN 1.0 ELSE 0.0 END) AS no_match,
       min(candidates) FILTER (WHERE candidates > 0) AS min_candidates,
       median(candidates) FILTER (WHERE candidates > 0) AS median_candidates
FROM eval_attacks
GROUP BY known
ORDER BY known;

-- name: eval_candidates_per_known
-- Every attack's candidates, as one sorted list per number of known items (the report's chart).
SELECT known, list(candidates ORDER BY candidates) AS candidates
FROM eval_attacks
GROUP BY known
ORDER BY known;

-- name: eval_generalization
-- Every original item instance with the most specific released node of its transaction that
-- covers it: how many levels above the item it is and its NCP; NULL when it is suppressed.
-- Cover is the preorder range test within the transaction, as in `information_loss`.
CREATE OR REPLACE TABLE eval_generalization AS
SELECT t.tid, t.item, min(i.depth - c.depth) AS levels_up, min(c.ncp) AS ncp
FROM tx AS t
JOIN node AS i ON i.id = t.item
LEFT JOIN (
    SELECT r.tid, n.id, n.last, n.depth, n.ncp
    FROM release AS r
    JOIN node AS n ON n.id = r.node
) AS c ON c.tid = t.tid AND t.item BETWEEN c.id AND c.last
GROUP BY t.tid, t.item;

-- name: eval_levels
-- Original item instances by how many levels above them they were released (NULL: suppressed).
SELECT levels_up, count(*) AS instances
FROM eval_generalization
GROUP BY levels_up
ORDER BY levels_up NULLS LAST;

-- name: eval_most_generalized
-- The $n items whose instances were released most generalized (mean NCP, 1 when suppressed),
-- the more frequent first among equals.
SELECT n.label AS item, count(*) AS instances,
       avg(coalesce(g.ncp, 1.0)) AS mean_ncp,
       avg(g.levels_up) AS mean_levels_up,
       count(*) FILTER (WHERE g.ncp IS NULL) AS suppressed
FROM eval_generalization AS g
JOIN node AS n ON n.id = g.item
GROUP BY n.label
ORDER BY round(mean_ncp, 9) DESC, instances DESC, item
LIMIT $n;

-- name: eval_table_risk
-- Exposure of a table release from its equivalence classes `eval_table_classes(support,
-- diversity)` (rows sharing their released QI values): prosecutor risk 1/class size per row,
-- its max and mean over rows, the share of rows above $threshold, and, with a sensitive column,
-- the highest probability of one sensitive value within a class (1 / diversity).
SELECT sum(support) AS rows,
       count(*) AS classes,
       max(1.0 / support) AS max_risk,
       count(*) / sum(support) AS mean_risk,
       coalesce(sum(support) FILTER (WHERE 1.0 / support > $threshold), 0) / sum(support)
           AS over_threshold,
       max(1.0 / diversity) AS max_sensitive_probability
FROM eval_table_classes;
