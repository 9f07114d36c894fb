-- What a release is worth and what it exposes: itemset-support query workloads answered from
-- the release under the uniform assumption (COAT, KAIS 2011; PCTA, CIKM 2011) and attacks by an
-- adversary who knows some items of a target. Every table is written in the run's schema.
-- Randomness is seeded: hash(..., $seed) orders the draws, so a seed gives the same workload on
-- the same data with the same DuckDB version.

-- name: eval_probes_create
-- The probes, empty: query itemsets of a workload ('random', 'frequent') and attacks ('attack',
-- `tid` the target, `itemset` the items the adversary knows); `size` is the itemset's size;
-- `actual` the support in the original when it is known already (frequent itemsets).
CREATE OR REPLACE TABLE eval_probes (
    workload VARCHAR, size INTEGER, qid BIGINT, tid BIGINT, itemset INTEGER[], actual BIGINT
);

-- name: eval_subsets
-- For each size in $sizes and each transaction with at least that many items: one random
-- subset of that size (`itemset`, sorted) and the transaction's place in a random order (`draw`).
CREATE OR REPLACE TABLE eval_subsets AS
WITH sizes AS (
    SELECT unnest($sizes::INTEGER[]) AS size
), lengths AS (
    SELECT tid, count(*) AS items FROM tx GROUP BY tid
), ranked AS (
    SELECT s.size, t.tid, t.item,
           row_number() OVER (PARTITION BY s.size, t.tid
                              ORDER BY hash(t.tid, t.item, s.size, $seed, $salt), t.item) AS pos
    FROM sizes AS s
    JOIN lengths AS l ON l.items >= s.size
    JOIN tx AS t ON t.tid = l.tid
)
SELECT size, tid, list(item ORDER BY item) AS itemset, hash(tid, size, $seed, $salt) AS draw
FROM ranked
WHERE pos <= size
GROUP BY size, tid;

-- name: eval_pick_random
-- The random workload: per size, the first $n distinct itemsets in the random order of the
-- transactions they were drawn from.
INSERT INTO eval_probes
SELECT 'random' AS workload, size,
       row_number() OVER (PARTITION BY size ORDER BY draw, itemset) AS qid,
       NULL::BIGINT AS tid, itemset, NULL::BIGINT AS actual
FROM (SELECT size, itemset, min(draw) AS draw FROM eval_subsets GROUP BY size, itemset)
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
-- The original's frequent items: support of at least $minsup transactions.
CREATE OR REPLACE TABLE eval_frequent AS
SELECT 1 AS size, [item] AS itemset, count(*) AS support
FROM tx
GROUP BY item
HAVING count(*) >= $minsup;

-- name: eval_frequent_extend
-- Frequent itemsets of size $size: each frequent ($size - 1)-itemset extended, in the
-- transactions holding it, by a larger frequent item (Apriori: every subset of a frequent
-- itemset is frequent, so no frequent itemset is missed).
INSERT INTO eval_frequent
WITH frequent_items AS (
    SELECT itemset[1] AS item FROM eval_frequent WHERE size = 1
), frequent_tx AS (
    SELECT t.tid, t.item FROM tx AS t SEMI JOIN frequent_items AS f ON f.item = t.item
), shorter AS (
    SELECT itemset, unnest(itemset) AS item FROM eval_frequent WHERE size = $size - 1
), holders AS (
    SELECT s.itemset, f.tid
    FROM shorter AS s
    JOIN frequent_tx AS f ON f.item = s.item
    GROUP BY s.itemset, f.tid
    HAVING count(*) = $size - 1
)
SELECT $size AS size, list_append(h.itemset, f.item) AS itemset, count(*) AS support
FROM holders AS h
JOIN frequent_tx AS f ON f.tid = h.tid AND f.item > h.itemset[-1]
GROUP BY h.itemset, f.item
HAVING count(*) >= $minsup;

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
-- The distinct transactions of each side, with how many transactions are each: 'release' the
-- released ones (`nodes` sorted, repeated for a multiset release; [] when nothing was
-- released), 'original' the original ones. The original answers a query as a release of its
-- leaves would, so one scoring statement gives actual and estimated supports.
CREATE OR REPLACE TABLE eval_classes AS
WITH per_tx AS (
    SELECT 'release' AS side, t.tid,
           coalesce(list(r.node ORDER BY r.node) FILTER (r.node IS NOT NULL), []) AS nodes
    FROM tids AS t
    LEFT JOIN release AS r ON r.tid = t.tid
    GROUP BY t.tid
    UNION ALL
    SELECT 'original' AS side, tid, list(item ORDER BY item) AS nodes
    FROM tx
    GROUP BY tid
), classes AS (
    SELECT side, nodes, count(*) AS support FROM per_tx GROUP BY side, nodes
)
SELECT row_number() OVER (ORDER BY side, nodes) AS cls, side, nodes, support
FROM classes;

-- name: eval_class_nodes
-- Each node of each distinct transaction with its weight: the chance that it stands for a
-- given leaf under it, 1/L per copy for a node over L leaves (one copy in a set release).
-- `nested` marks the released transactions holding a node and one of its ancestors.
CREATE OR REPLACE TABLE eval_class_nodes AS
WITH weighted AS (
    SELECT c.cls, c.side, c.node,
           least(1.0, (CASE WHEN $multiset THEN count(*) ELSE 1 END) / any_value(n.leaf_count))
               AS weight
    FROM (SELECT cls, side, unnest(nodes) AS node FROM eval_classes) AS c
    JOIN node AS n ON n.id = c.node
    GROUP BY c.cls, c.side, c.node
), nested AS (
    SELECT DISTINCT d.cls
    FROM weighted AS d
    JOIN closure AS a ON a.node = d.node AND a.ancestor <> d.node
    JOIN weighted AS u ON u.cls = d.cls AND u.node = a.ancestor
)
SELECT w.cls, w.side, w.node, w.weight, n.cls IS NOT NULL AS nested
FROM weighted AS w
LEFT JOIN nested AS n ON n.cls = w.cls;

-- name: eval_node_tuples
-- The fast path, for released transactions in which no node is above another (every cut,
-- global or local): each leaf is covered by at most one node, so a probe's answer is a sum
-- over tuples of nodes. Here, for every sorted tuple of 1..$max_size nodes (repeats allowed)
-- of such transactions: how many hold them all, and the sum of the products of their weights.
CREATE OR REPLACE TABLE eval_node_tuples AS
WITH RECURSIVE flat AS (
    SELECT cls, node, weight FROM eval_class_nodes WHERE side = 'release' AND NOT nested
), tuples(cls, nodes, weight, size) AS (
    SELECT cls, [node], weight, 1 FROM flat
    UNION ALL
    SELECT t.cls, list_append(t.nodes, f.node), t.weight * f.weight, t.size + 1
    FROM tuples AS t
    JOIN flat AS f ON f.cls = t.cls AND f.node >= t.nodes[-1]
    WHERE t.size < $max_size
)
SELECT t.nodes, sum(k.support * t.weight) AS estimate, sum(k.support) AS candidates
FROM tuples AS t
JOIN eval_classes AS k ON k.cls = t.cls
GROUP BY t.nodes;

-- name: eval_fast_scores
-- Every way to cover each probe's items by released nodes of the fast path (one node on each
-- item's path to the root), as a sorted tuple, with the probe's answer over those tuples.
CREATE OR REPLACE TABLE eval_fast_scores AS
WITH RECURSIVE released AS (
    SELECT DISTINCT node FROM eval_class_nodes WHERE side = 'release' AND NOT nested
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
SELECT v.workload, v.size, v.qid,
       sum(t.estimate) AS estimate, sum(t.candidates) AS candidates
FROM covers AS v
JOIN eval_node_tuples AS t ON t.nodes = list_sort(v.nodes)
WHERE v.pos = v.size
GROUP BY v.workload, v.size, v.qid;

-- name: eval_item_cover
-- The general path, for the original and for released transactions with nested nodes: for
-- every item of a probe, the distinct transactions covering it (a node equal to the item or
-- above it) and p(item) = min(1, sum of the weights of the covering nodes).
CREATE OR REPLACE TABLE eval_item_cover AS
WITH items AS (
    SELECT DISTINCT unnest(itemset) AS item FROM eval_probes
)
SELECT i.item, c.side, c.cls, least(1.0, sum(c.weight)) AS p
FROM items AS i
JOIN closure AS a ON a.node = i.item
JOIN eval_class_nodes AS c ON c.node = a.ancestor
WHERE c.side = 'original' OR c.nested
GROUP BY i.item, c.side, c.cls;

-- name: eval_scores
-- For every probe Q, on each side, the transactions covering all of its items: on the release,
-- an attack's candidates and the estimate est(Q) = sum over released transactions R of
-- prod over q in Q of p_R(q); on the original, the actual support. The general path starts
-- each probe from its item covered by the fewest distinct transactions and looks the others
-- up in those only; the fast path's answers (`eval_fast_scores`) are added. Attacks need no
-- actual support, and frequent itemsets know theirs.
CREATE OR REPLACE TABLE eval_scores AS
WITH reach AS (
    SELECT side, item, count(*) AS classes FROM eval_item_cover GROUP BY side, item
), probe_items AS (
    SELECT workload, size, qid, unnest(itemset) AS item,
           actual IS NULL AND workload <> 'attack' AS count_actual
    FROM eval_probes
), ranked AS (
    SELECT p.workload, p.size, p.qid, p.item, s.side,
           row_number() OVER (PARTITION BY s.side, p.workload, p.size, p.qid
                              ORDER BY coalesce(r.classes, 0), p.item) AS pos
    FROM probe_items AS p
    JOIN (VALUES ('release'), ('original')) AS s(side)
      ON s.side = 'release' OR p.count_actual
    LEFT JOIN reach AS r ON r.side = s.side AND r.item = p.item
), driver AS (
    SELECT r.side, r.workload, r.size, r.qid, c.cls, c.p
    FROM ranked AS r
    JOIN eval_item_cover AS c ON c.side = r.side AND c.item = r.item
    WHERE r.pos = 1
), lookups AS (
    SELECT d.side, d.workload, d.size, d.qid, d.cls, r.item
    FROM driver AS d
    JOIN ranked AS r USING (side, workload, size, qid)
    WHERE r.pos > 1
), matched AS (
    SELECT l.side, l.workload, l.size, l.qid, l.cls, product(c.p) AS p, count(*) AS items
    FROM lookups AS l
    JOIN eval_item_cover AS c ON c.item = l.item AND c.cls = l.cls
    GROUP BY l.side, l.workload, l.size, l.qid, l.cls
), covering AS (
    SELECT d.side, d.workload, d.size, d.qid, d.cls, d.p * coalesce(m.p, 1.0) AS p
    FROM driver AS d
    LEFT JOIN matched AS m USING (side, workload, size, qid, cls)
    WHERE coalesce(m.items, 0) = d.size - 1
), general AS (
    SELECT c.workload, c.size, c.qid,
           coalesce(sum(k.support) FILTER (WHERE c.side = 'original'), 0) AS actual,
           coalesce(sum(k.support * c.p) FILTER (WHERE c.side = 'release'), 0) AS estimate,
           coalesce(sum(k.support) FILTER (WHERE c.side = 'release'), 0) AS candidates
    FROM covering AS c
    JOIN eval_classes AS k ON k.cls = c.cls
    GROUP BY c.workload, c.size, c.qid
)
SELECT q.workload, q.size, q.qid,
       coalesce(q.actual, g.actual, 0) AS actual,
       coalesce(g.estimate, 0) + coalesce(f.estimate, 0) AS estimate,
       coalesce(g.candidates, 0) + coalesce(f.candidates, 0) AS candidates
FROM eval_probes AS q
LEFT JOIN general AS g USING (workload, size, qid)
LEFT JOIN eval_fast_scores AS f USING (workload, size, qid);

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

-- name: eval_query_figures
-- Per workload and size: queries, mean and median relative error, the share with an error
-- above 50 %, the share underestimated.
SELECT workload, size, count(*) AS queries,
       avg(re) AS are,
       median(re) AS median_re,
       avg(CASE WHEN re > 0.5 THEN 1.0 ELSE 0.0 END) AS over_50,
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
