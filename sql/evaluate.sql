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

-- name: eval_class_nodes
-- Each distinct released transaction as an antichain of weighted nodes that covers the same
-- leaves with the same chance. A copy of a node over L leaves stands for a given leaf under it
-- with chance 1/L (one copy in a set release), copies add, capped at 1. Where a transaction
-- holds a node and a node below it (an "open" node, as LCG releases do), the open node is
-- replaced by its children, down to the lower node; each resulting node weighs the sum of the
-- released nodes above or at it. Each leaf is then covered by at most one node of a class.
-- "Above" is the preorder range test within a class (a covers b when b is in a.id..a.last),
-- never `closure` joined on its ancestor side, which pairs a node with its whole subtree
-- (issue 26); closure is read only upwards, from the lower node of each pair. Each row carries
-- its class's `support`, so the counts need not join the classes again.
CREATE OR REPLACE TEMP TABLE eval_class_nodes AS
WITH released AS (
    SELECT c.cls, c.node, any_value(n.last) AS last,
           least(1.0, (CASE WHEN $multiset THEN count(*) ELSE 1 END) / any_value(n.leaf_count))
               AS weight, any_value(c.support) AS support
    FROM (SELECT cls, support, unnest(nodes) AS node FROM eval_classes) AS c
    JOIN node AS n ON n.id = c.node
    GROUP BY c.cls, c.node
), flagged AS (
    -- a node lies under another of its class when an earlier one in preorder reaches it
    SELECT *, coalesce(max(last) OVER (PARTITION BY cls ORDER BY node
                                       ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING),
                       -1) >= node AS nested
    FROM released
), nested_classes AS (
    SELECT DISTINCT cls FROM flagged WHERE nested
), below_top AS (
    -- every released node under another one of its class, with the highest of those above it
    -- (the smallest preorder id)
    SELECT b.cls, b.node, min(a.node) AS top
    FROM flagged AS b
    JOIN released AS a ON a.cls = b.cls AND b.node > a.node AND b.node <= a.last
    WHERE b.nested
    GROUP BY b.cls, b.node
), open AS (
    -- the nodes on the way up from each such node to its top one, the top one included
    SELECT DISTINCT b.cls, x.ancestor AS node
    FROM below_top AS b
    JOIN closure AS x ON x.node = b.node AND x.distance > 0 AND x.ancestor >= b.top
), nested_released AS (
    SELECT r.* FROM released AS r SEMI JOIN nested_classes AS c ON c.cls = r.cls
), flat AS (
    SELECT cls, node FROM nested_released
    UNION
    SELECT o.cls, n.id AS node FROM open AS o JOIN node AS n ON n.parent = o.node
)
-- a class without nested nodes is an antichain already
SELECT r.cls, r.node, r.weight, r.support
FROM released AS r
ANTI JOIN nested_classes AS c ON c.cls = r.cls
UNION ALL
SELECT f.cls, f.node, least(1.0, sum(r.weight)) AS weight, any_value(r.support) AS support
FROM flat AS f
ANTI JOIN open AS o ON o.cls = f.cls AND o.node = f.node
JOIN nested_released AS r ON r.cls = f.cls AND f.node BETWEEN r.node AND r.last
GROUP BY f.cls, f.node;

-- name: eval_covers
-- For every probe Q, every way to pick, for each of its items, a released node equal to the
-- item or above it (`nodes`, sorted; repeats kept): the released transactions holding all the
-- nodes of some pick are those covering Q.
CREATE OR REPLACE TEMP TABLE eval_covers AS
WITH RECURSIVE released AS (
    SELECT DISTINCT node FROM eval_class_nodes
), probe_items AS (
    SELECT workload, size, qid, unnest(itemset) AS item, generate_subscripts(itemset, 1) AS pos
    FROM eval_probes
), choices AS (
    SELECT p.workload, p.size, p.qid, p.pos, a.ancestor AS node
    FROM probe_items AS p
    JOIN closure AS a ON a.node = p.item
    SEMI JOIN released AS r ON r.node = a.ancestor
), covers(workload, size, qid, pos, nodes) AS (
    SELECT workload, size, qid, pos, [node] FROM choices WHERE pos = 1
    UNION ALL
    SELECT c.workload, c.size, c.qid, c.pos, list_append(v.nodes, c.node)
    FROM covers AS v
    JOIN choices AS c ON c.workload = v.workload AND c.size = v.size AND c.qid = v.qid
                     AND c.pos = v.pos + 1
)
SELECT workload, size, qid, list_sort(nodes) AS nodes
FROM covers
WHERE pos = size;

-- name: eval_node_tuples
-- For every sorted tuple of nodes a probe's cover picks: how many released transactions hold
-- them all (`candidates`), and the sum over them of the products of the nodes' weights
-- (`estimate`; a repeated node counts its weight again). Each leaf being covered by at most
-- one node of a class, a probe's answer is a sum over its covers. A tuple's two rarest nodes
-- (held by the fewest classes) are matched by a join of each class with itself, only the
-- pairs some tuple begins with kept; the classes holding them are then looked up for each
-- further node, by (class, node). The work is the classes holding a tuple's two rarest
-- nodes, never every tuple a class could form, and no row per (tuple, class) is joined to
-- anything but the class's next node: sums are taken per tuple first.
CREATE OR REPLACE TEMP TABLE eval_node_tuples AS
WITH needed AS (
    SELECT row_number() OVER () AS tuple, nodes FROM (SELECT DISTINCT nodes FROM eval_covers)
), classes_of AS (
    SELECT node, count(*) AS classes FROM eval_class_nodes GROUP BY node
), parts AS (
    SELECT n.tuple, u.node, count(*) AS times, len(list_distinct(any_value(n.nodes))) AS width
    FROM needed AS n, unnest(n.nodes) AS u(node)
    GROUP BY n.tuple, u.node
), positions AS (
    -- a tuple with a node no class holds drops out: no class covers it
    SELECT p.tuple, p.node, p.times, p.width,
           row_number() OVER (PARTITION BY p.tuple ORDER BY c.classes, p.node) AS pos
    FROM parts AS p
    JOIN classes_of AS c ON c.node = p.node
    QUALIFY count(*) OVER (PARTITION BY p.tuple) = p.width
), firsts AS (
    -- each tuple of 2+ nodes: its two rarest nodes, in id order, with how often each repeats
    SELECT p1.tuple, p1.width, least(p1.node, p2.node) AS lo, greatest(p1.node, p2.node) AS hi,
           CASE WHEN p1.node < p2.node THEN p1.times ELSE p2.times END AS lo_times,
           CASE WHEN p1.node < p2.node THEN p2.times ELSE p1.times END AS hi_times
    FROM positions AS p1
    JOIN positions AS p2 ON p2.tuple = p1.tuple AND p2.pos = 2
    WHERE p1.pos = 1
), pair_hits AS MATERIALIZED (
    -- the pairs of a class's nodes (by id) that begin some tuple: a join within each class
    SELECT a.cls, a.support, a.node AS lo, b.node AS hi, a.weight AS lo_weight,
           b.weight AS hi_weight
    FROM eval_class_nodes AS a
    JOIN eval_class_nodes AS b ON b.cls = a.cls AND b.node > a.node
    SEMI JOIN firsts AS f ON f.lo = a.node AND f.hi = b.node
), anchors AS MATERIALIZED (
    -- every tuple of 2+ nodes in every class holding its two rarest nodes
    SELECT f.tuple, f.width, h.cls, h.support,
           pow(h.lo_weight, f.lo_times) * pow(h.hi_weight, f.hi_times) AS weight
    FROM firsts AS f
    JOIN pair_hits AS h ON h.lo = f.lo AND h.hi = f.hi
), held AS (
    -- (tuple, support, weight) of every class holding the whole tuple: 1 node, 2 nodes, 3
    -- nodes (one lookup each), more (the lookups counted per class)
    SELECT p.tuple, c.support, pow(c.weight, p.times) AS weight
    FROM positions AS p
    JOIN eval_class_nodes AS c ON c.node = p.node
    WHERE p.width = 1
    UNION ALL
    SELECT tuple, support, weight FROM anchors WHERE width = 2
    UNION ALL
    SELECT a.tuple, a.support, a.weight * pow(c.weight, p.times) AS weight
    FROM anchors AS a
    JOIN positions AS p ON p.tuple = a.tuple AND p.pos = 3
    JOIN eval_class_nodes AS c ON c.cls = a.cls AND c.node = p.node
    WHERE a.width = 3
    UNION ALL
    SELECT a.tuple, any_value(a.support) AS support,
           any_value(a.weight) * product(pow(c.weight, p.times)) AS weight
    FROM anchors AS a
    JOIN positions AS p ON p.tuple = a.tuple AND p.pos > 2
    JOIN eval_class_nodes AS c ON c.cls = a.cls AND c.node = p.node
    WHERE a.width > 3
    GROUP BY a.tuple, a.cls
    HAVING count(*) = any_value(a.width) - 2
), sums AS (
    SELECT tuple, sum(support * weight) AS estimate, sum(support) AS candidates
    FROM held
    GROUP BY tuple
)
SELECT n.nodes, s.estimate, s.candidates
FROM sums AS s
JOIN needed AS n ON n.tuple = s.tuple;

-- name: eval_release_scores
-- For every probe Q: the released transactions covering it (an attack's candidates) and the
-- estimated support est(Q) = sum over released transactions R of prod over q in Q of p_R(q),
-- the sums over its covers' node tuples.
CREATE OR REPLACE TEMP TABLE eval_release_scores AS
SELECT v.workload, v.size, v.qid,
       sum(t.estimate) AS estimate, sum(t.candidates) AS candidates
FROM eval_covers AS v
JOIN eval_node_tuples AS t ON t.nodes = v.nodes
GROUP BY v.workload, v.size, v.qid;

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
LEFT JOIN eval_release_scores AS r USING (workload, size, qid);

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
