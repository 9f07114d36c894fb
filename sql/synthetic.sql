-- Seeded synthetic market baskets (IBM-Quest-like), for benchmarks at scale. Every random
-- draw is a hash of (seed, what is drawn, transaction or pattern, position), never a random
-- generator's state, so a basket depends on its seed and tid alone: the file is the same
-- whatever the thread count, and one statement writes any number of transactions.
--
-- Items are 0 .. $items - 1; a balanced fan-out hierarchy over them (setanon's --fanout F)
-- puts blocks of F^d consecutive ids under one node of height d.

-- name: synthetic_macro_u
-- A uniform draw in [0, 1) from the hash of (seed, what is drawn, a, b).
CREATE OR REPLACE TEMP MACRO synthetic_u(seed, what, a, b) AS
    (hash(seed, what, a, b) >> 11)::DOUBLE / 9007199254740992.0;

-- name: synthetic_macro_rank
-- A Zipf-like (log-uniform) rank in 0 .. n - 1 from a uniform u: rank r has probability
-- about 1 / (r ln n).
CREATE OR REPLACE TEMP MACRO synthetic_rank(u, n) AS
    least(floor(exp(u * ln(n)))::BIGINT - 1, n - 1);

-- name: synthetic_macro_item
-- An item of Zipf-like popularity: its rank scattered over the ids by a multiplier prime to
-- the item count (a bijection), so popular items are not neighbours in the hierarchy.
CREATE OR REPLACE TEMP MACRO synthetic_item(u, n, scatter) AS
    (synthetic_rank(u, n) * scatter + 7) % n;

-- name: synthetic_macro_pattern_item
-- Item j of pattern p: half the patterns stay inside the block of `block` leaves (one
-- subtree) of a popular anchor item, the others draw every item by popularity.
CREATE OR REPLACE TEMP MACRO synthetic_pattern_item(seed, p, j, n, scatter, block) AS
    CASE WHEN synthetic_u(seed, 'local', p, 0) < 0.5
         THEN least(
             synthetic_item(synthetic_u(seed, 'anchor', p, 0), n, scatter) // block * block
                 + (hash(seed, 'in_block', p, j) % block)::BIGINT,
             n - 1)
         ELSE synthetic_item(synthetic_u(seed, 'pattern', p, j), n, scatter)
    END;

-- name: synthetic_baskets
-- One row per (transaction, item), in tid order. A transaction holds a Pareto-tailed number
-- of independent items (at least one, at most $max_length), and with probability
-- $pattern_share one of $patterns correlated patterns (Zipf-like over patterns too) of 2..5
-- items, half of them inside one subtree of $block leaves. Repeated items collapse.
SELECT tid, unnest(basket) AS item
FROM (
    SELECT tid,
           list_sort(list_distinct(
               [synthetic_item(synthetic_u($seed, 'item', tid, j), $items, $scatter)
                for j in range(least(
                    floor($min_length * pow(1 - synthetic_u($seed, 'length', tid, 0),
                                            -1 / $tail))::BIGINT,
                    $max_length))]
               || CASE WHEN synthetic_u($seed, 'has_pattern', tid, 0) < $pattern_share
                       THEN [synthetic_pattern_item(
                                 $seed, synthetic_rank(synthetic_u($seed, 'which', tid, 0),
                                                       $patterns),
                                 j, $items, $scatter, $block)
                             for j in range(2 + (hash($seed, 'pattern_length',
                                 synthetic_rank(synthetic_u($seed, 'which', tid, 0), $patterns),
                                 0) % 4)::BIGINT)]
                       ELSE [] END
           )) AS basket
    FROM range($transactions) AS t(tid)
);

-- name: synthetic_written
-- What a written Parquet file of baskets holds: its rows and distinct items.
SELECT count(*) AS rows, count(DISTINCT item) AS items FROM read_parquet($p);
