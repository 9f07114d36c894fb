-- Differentially private release of transactions (#44): bounded contributions, noisy counts of
-- items and pairs (the noise is added in Python, by OpenDP), and baskets synthesized
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

-- name: dp_restricted
-- The measured transactions (of at most $longest items: the longer ones are modeled, not
-- measured) restricted to the items of `dp_kept_items` (the most frequent by noisy count, a
-- choice from noisy answers only), with their restricted length and, for the longer ones
-- ($limit < length), at most $limit items picked by a hash of the restricted transaction's own
-- items (never its tid, which depends on the others). Transactions of fewer than 2 kept items
-- contribute no pair. `long` says which half of the pair counts a transaction feeds: one
-- transaction feeds one half only.
CREATE OR REPLACE TABLE dp_bounded AS
SELECT tid, item, length > $limit AS long
FROM (
    SELECT tid, item, length,
           row_number() OVER (PARTITION BY tid ORDER BY hash(content, item), item) AS pick
    FROM (
        SELECT t.tid, t.item,
               bit_xor(hash(t.item)) OVER (PARTITION BY t.tid) AS content,
               count(*) OVER (PARTITION BY t.tid) AS length
        FROM tx AS t
        SEMI JOIN dp_kept_items AS k ON k.item = t.item
        SEMI JOIN dp_lengths AS w ON w.tid = t.tid AND w.length <= $longest
    )
)
WHERE length >= 2 AND pick <= $limit;

-- name: dp_lengths
-- Every transaction's length, counted once: what the histogram bins and what decides which
-- transactions are measured and which modeled.
CREATE OR REPLACE TABLE dp_lengths AS
SELECT tid, count(*) AS length FROM tx GROUP BY tid;

-- name: dp_count_length_bins
-- How many transactions have a length in each bin of `dp_length_bins(bin, lo, hi)` (hi NULL:
-- that length or more), zeros included: one transaction more or less changes one count by one.
SELECT b.bin, count(l.tid) AS support
FROM dp_length_bins AS b
LEFT JOIN dp_lengths AS l
  ON l.length >= b.lo AND (b.hi IS NULL OR l.length <= b.hi)
GROUP BY b.bin
ORDER BY b.bin;

-- name: dp_count_l1
-- The bounded support of every leaf of the hierarchy (the public item domain), zeros included:
-- the noise must cover the items no transaction holds.
SELECT n.id AS a, count(b.tid) AS support
FROM node AS n
LEFT JOIN dp_bounded AS b ON b.item = n.id
WHERE n.is_leaf
GROUP BY n.id
ORDER BY n.id;

-- name: dp_unused_leaves
-- How many leaves of the hierarchy no transaction holds: none, and the leaves are exactly the
-- data's items, as in a tree built from the data (a domain that is not public).
SELECT count(*) AS unused
FROM node AS n
WHERE n.is_leaf AND NOT EXISTS (SELECT 1 FROM tx AS t WHERE t.item = n.id);

-- name: dp_candidates_l2
-- Candidate pairs: every pair of items kept at level 1.
CREATE OR REPLACE TABLE dp_candidates_l2 AS
SELECT x.a, y.a AS b
FROM dp_noisy_l1 AS x
JOIN dp_noisy_l1 AS y ON x.a < y.a
WHERE x.kept AND y.kept;

-- name: dp_count_l2
-- Every candidate pair's support among the short transactions (all their pairs) and among the
-- long ones (the pairs of their picked items), zeros included.
SELECT c.a, c.b,
       count(p.tid) FILTER (WHERE NOT p.long) AS short,
       count(p.tid) FILTER (WHERE p.long) AS long
FROM dp_candidates_l2 AS c
LEFT JOIN (
    SELECT x.tid, x.item AS a, y.item AS b, x.long
    FROM dp_bounded AS x
    JOIN dp_bounded AS y ON y.tid = x.tid AND x.item < y.item
) AS p ON p.a = c.a AND p.b = c.b
GROUP BY c.a, c.b
ORDER BY c.a, c.b;

-- name: dp_count_pair_lengths
-- Among the measured transactions (of at most $top items: the longer ones are modeled), how
-- many hold each number 1..$top of kept items, zeros included: one transaction more or less
-- changes one count by one. What scales the long half of the pair counts back up.
SELECT r.range AS length, count(l.tid) AS support
FROM range(1, $top + 1) AS r
LEFT JOIN (
    SELECT t.tid, count(*) AS length
    FROM tx AS t
    SEMI JOIN dp_kept_items AS k ON k.item = t.item
    SEMI JOIN dp_lengths AS w ON w.tid = t.tid AND w.length <= $top
    GROUP BY t.tid
) AS l ON l.length = r.range
GROUP BY r.range
ORDER BY r.range;

-- name: dp_kept_items_of_l1
-- The items kept at level 1: those the pairs' transactions are restricted to.
CREATE OR REPLACE TABLE dp_kept_items AS
SELECT a AS item FROM dp_noisy_l1 WHERE kept;

-- name: dp_release
-- The release: each basket of `dp_baskets(basket, item, copies)` copied `copies` times, each
-- copy a new transaction (tids 1..n in the baskets' order, which depends on the noisy
-- estimates only), items as their hierarchy leaves.
CREATE OR REPLACE TABLE release AS
WITH sized AS (
    SELECT basket, any_value(copies) AS copies FROM dp_baskets GROUP BY basket
), numbered AS (
    SELECT basket, copies,
           sum(copies) OVER (ORDER BY basket ROWS UNBOUNDED PRECEDING) - copies AS before
    FROM sized
)
SELECT CAST(n.before + r.range + 1 AS BIGINT) AS tid, CAST(b.item AS INTEGER) AS node
FROM numbered AS n
CROSS JOIN range(n.copies) AS r
JOIN dp_baskets AS b ON b.basket = n.basket
ORDER BY tid, node;

-- name: dp_verify_budget
-- The budget record: measurements, their total epsilon, the least one, the run's epsilon as
-- recorded, rows missing a mechanism or a positive sensitivity and scale, and rows whose
-- noise was the seeded test mode's ($seeded: its mechanism).
SELECT count(*) AS steps,
       count(*) FILTER (WHERE mechanism = $seeded) AS seeded,
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

-- name: dp_estimates_l1
-- The released items' estimates, what the baskets are synthesized from.
SELECT a, estimate FROM dp_noisy_l1 WHERE released ORDER BY a;

-- name: dp_estimates_l2
-- The released pairs' estimates (every kept pair whose estimate is at least 1).
SELECT a, b, estimate FROM dp_noisy_l2 WHERE released ORDER BY a, b;
