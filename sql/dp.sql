-- Differentially private release of transactions (#44): bounded contributions, noisy counts of
-- items, pairs and triples (the noise is added in Python, by OpenDP), and baskets synthesized
-- from the noisy counts. Every statement reads all transactions once or one level's itemsets.

-- name: dp_bounded_items
-- Each transaction cut to at most $limit of its items, picked by a hash of the item and of the
-- transaction's own items (the xor of their hashes): which items a transaction keeps depends
-- on that transaction alone, never on its tid, which depends on the others (its line, its
-- place), so one transaction more or less changes at most $limit rows.
CREATE OR REPLACE TABLE dp_bounded AS
SELECT tid, item
FROM (
    SELECT tid, item,
           row_number() OVER (PARTITION BY tid ORDER BY hash(content, item), item) AS pick
    FROM (SELECT tid, item, bit_xor(hash(item)) OVER (PARTITION BY tid) AS content FROM tx)
)
WHERE pick <= $limit;

-- name: dp_bounded_among
-- Each transaction restricted to the items of `dp_kept_items` (chosen from noisy counts only),
-- then cut to at most $limit of them, picked by the restricted transaction's own items as above.
CREATE OR REPLACE TABLE dp_bounded AS
SELECT tid, item
FROM (
    SELECT tid, item,
           row_number() OVER (PARTITION BY tid ORDER BY hash(content, item), item) AS pick
    FROM (
        SELECT t.tid, t.item, bit_xor(hash(t.item)) OVER (PARTITION BY t.tid) AS content
        FROM tx AS t
        SEMI JOIN dp_kept_items AS k ON k.item = t.item
    )
)
WHERE pick <= $limit;

-- name: dp_count_lengths
-- How many transactions have each length 1..$top ($top: that many items or more), zeros
-- included: one transaction more or less changes one count by one.
SELECT r.range AS length, count(l.tid) AS support
FROM range(1, $top + 1) AS r
LEFT JOIN (
    SELECT tid, least(count(*), $top) AS length FROM tx GROUP BY tid
) AS l ON l.length = r.range
GROUP BY r.range
ORDER BY r.range;

-- name: dp_count_l1
-- The bounded support of every leaf of the hierarchy (the public item domain), zeros included:
-- the noise must cover the items no transaction holds.
SELECT n.id AS a, count(b.tid) AS support
FROM node AS n
LEFT JOIN dp_bounded AS b ON b.item = n.id
WHERE n.is_leaf
GROUP BY n.id
ORDER BY n.id;

-- name: dp_candidates_l2
-- Candidate pairs: every pair of items kept at level 1.
CREATE OR REPLACE TABLE dp_candidates_l2 AS
SELECT x.a, y.a AS b
FROM dp_noisy_l1 AS x
JOIN dp_noisy_l1 AS y ON x.a < y.a
WHERE x.kept AND y.kept;

-- name: dp_count_l2
-- The bounded support of every candidate pair, zeros included.
SELECT c.a, c.b, count(p.tid) AS support
FROM dp_candidates_l2 AS c
LEFT JOIN (
    SELECT x.tid, x.item AS a, y.item AS b
    FROM dp_bounded AS x
    JOIN dp_bounded AS y ON y.tid = x.tid AND x.item < y.item
) AS p ON p.a = c.a AND p.b = c.b
GROUP BY c.a, c.b
ORDER BY c.a, c.b;

-- name: dp_kept_items_of_pairs
-- The items of the pairs kept at level 2: those the triples' transactions are restricted to.
CREATE OR REPLACE TABLE dp_kept_items AS
SELECT a AS item FROM dp_noisy_l2 WHERE kept
UNION
SELECT b AS item FROM dp_noisy_l2 WHERE kept;

-- name: dp_kept_items_of_l1
-- The items kept at level 1: those the pairs' transactions are restricted to.
CREATE OR REPLACE TABLE dp_kept_items AS
SELECT a AS item FROM dp_noisy_l1 WHERE kept;

-- name: dp_candidates_l3
-- Candidate triples: those whose three pairs were all kept at level 2 (Apriori on noisy
-- answers, which is post-processing).
CREATE OR REPLACE TABLE dp_candidates_l3 AS
SELECT ab.a, ab.b, bc.b AS c
FROM dp_noisy_l2 AS ab
JOIN dp_noisy_l2 AS bc ON bc.a = ab.b AND bc.kept
JOIN dp_noisy_l2 AS ac ON ac.a = ab.a AND ac.b = bc.b AND ac.kept
WHERE ab.kept;

-- name: dp_count_l3
-- The bounded support of every candidate triple, zeros included.
SELECT c.a, c.b, c.c, count(p.tid) AS support
FROM dp_candidates_l3 AS c
LEFT JOIN (
    SELECT x.tid, x.item AS a, y.item AS b, z.item AS c
    FROM dp_bounded AS x
    JOIN dp_bounded AS y ON y.tid = x.tid AND x.item < y.item
    JOIN dp_bounded AS z ON z.tid = x.tid AND y.item < z.item
) AS p ON p.a = c.a AND p.b = c.b AND p.c = c.c
GROUP BY c.a, c.b, c.c
ORDER BY c.a, c.b, c.c;

-- name: dp_baskets_new
-- The baskets to release: an itemset of one to three items and how many copies of it.
CREATE OR REPLACE TABLE dp_baskets (a INTEGER, b INTEGER, c INTEGER, copies BIGINT);

-- name: dp_baskets_l3
-- Each released triple as as many baskets as its estimated count.
INSERT INTO dp_baskets
SELECT a, b, c, estimate FROM dp_noisy_l3 WHERE released AND estimate > 0;

-- name: dp_baskets_l2
-- Each released pair as the baskets its estimated count still lacks after the triples'.
INSERT INTO dp_baskets
WITH covered AS (
    SELECT a, b, copies FROM dp_baskets
    UNION ALL SELECT a, c, copies FROM dp_baskets
    UNION ALL SELECT b, c, copies FROM dp_baskets
), covered_pairs AS (
    SELECT a, b, sum(copies) AS copies FROM covered WHERE b IS NOT NULL GROUP BY a, b
)
SELECT p.a, p.b, NULL, p.estimate - coalesce(c.copies, 0)
FROM dp_noisy_l2 AS p
LEFT JOIN covered_pairs AS c ON c.a = p.a AND c.b = p.b
WHERE p.released AND p.estimate > coalesce(c.copies, 0);

-- name: dp_baskets_l1
-- Each released item as the single-item baskets its estimated count still lacks.
INSERT INTO dp_baskets
WITH covered AS (
    SELECT a AS item, copies FROM dp_baskets
    UNION ALL SELECT b, copies FROM dp_baskets WHERE b IS NOT NULL
    UNION ALL SELECT c, copies FROM dp_baskets WHERE c IS NOT NULL
), covered_items AS (
    SELECT item, sum(copies) AS copies FROM covered GROUP BY item
)
SELECT i.a, NULL, NULL, i.estimate - coalesce(c.copies, 0)
FROM dp_noisy_l1 AS i
LEFT JOIN covered_items AS c ON c.item = i.a
WHERE i.released AND i.estimate > coalesce(c.copies, 0);

-- name: dp_release
-- The release: each basket copied `copies` times, each copy a new transaction (tids 1..n in
-- the baskets' order, which depends on the noisy counts only), items as their hierarchy leaves.
CREATE OR REPLACE TABLE release AS
WITH numbered AS (
    SELECT a, b, c, copies,
           sum(copies) OVER (ORDER BY a, b NULLS FIRST, c NULLS FIRST
                             ROWS UNBOUNDED PRECEDING) - copies AS before
    FROM dp_baskets
), copied AS (
    SELECT CAST(n.before + r.range + 1 AS BIGINT) AS tid, [n.a, n.b, n.c] AS items
    FROM numbered AS n, range(n.copies) AS r
)
SELECT tid, CAST(node AS INTEGER) AS node
FROM (SELECT tid, unnest(items) AS node FROM copied)
WHERE node IS NOT NULL
ORDER BY tid, node;

-- name: dp_verify_budget
-- The budget record: measurements, their total epsilon, the least one, the run's epsilon as
-- recorded, and rows missing a mechanism or a positive sensitivity and scale.
SELECT count(*) AS steps,
       coalesce(sum(epsilon), 0) AS spent,
       min(epsilon) AS least,
       max(run_epsilon) AS recorded,
       count(DISTINCT run_epsilon) AS recorded_values,
       count(*) FILTER (
           WHERE mechanism IS NULL OR mechanism = '' OR NOT sensitivity > 0 OR NOT scale > 0
       ) AS malformed
FROM dp_budget;

-- name: dp_verify_release
-- Released rows that are not a transaction holding a leaf of the hierarchy (an original item).
SELECT count(*) AS problems
FROM release AS r
LEFT JOIN node AS n ON n.id = r.node AND n.is_leaf
WHERE r.tid IS NULL OR n.id IS NULL;

-- name: dp_release_classes
-- The distinct released transactions of a differentially private release and how many
-- transactions were released as each: its own transactions, with new tids, so not through the
-- original's `tids` (as `k_anonymity_classes` does); what `evaluate` scores the queries on.
CREATE OR REPLACE TABLE release_classes AS
WITH per_tx AS (
    SELECT tid, list(node ORDER BY node) AS itemset
    FROM release
    GROUP BY tid
)
SELECT itemset, count(*) AS support
FROM per_tx
GROUP BY itemset
ORDER BY support, itemset;

-- name: dp_release_labelled
-- A differentially private release as written: its own new tids (1..n, no original id) and
-- the items' original labels, in tid order.
SELECT r.tid, n.label AS item
FROM release AS r
JOIN node AS n ON n.id = r.node
ORDER BY r.tid, r.node;

-- name: dp_release_per_transaction
-- The same, one row per released transaction with the list of its item labels.
SELECT r.tid, list(n.label ORDER BY r.node) AS items
FROM release AS r
JOIN node AS n ON n.id = r.node
GROUP BY r.tid
ORDER BY r.tid;
