-- Checks of a release against its original. Every run schema holds its output as
-- `release(tid, node)`: one row per released item (a multiset release repeats a row).

-- name: verify_generalizes
-- Released items that are neither an original item of their transaction nor an ancestor of one.
-- A repeated (tid, node) row is reported once: DISTINCT of the failures, not of the release
-- (a valid release has none, and making all of it distinct first cost a hash of every row).
SELECT DISTINCT r.tid, r.node, 'not a generalization of any original item' AS problem
FROM release AS r
JOIN node AS n ON n.id = r.node
ANTI JOIN tx AS t ON t.tid = r.tid AND t.item BETWEEN n.id AND n.last
ORDER BY r.tid, r.node;

-- name: verify_unknown_tids
-- Released transactions whose tid is not in the original data.
SELECT DISTINCT r.tid, NULL::INTEGER AS node, 'tid not in the original data' AS problem
FROM release AS r
ANTI JOIN tids AS t ON t.tid = r.tid
ORDER BY r.tid;

-- name: verify_covers
-- Original items that no released item of their transaction covers (i.e. suppressed items).
-- Repeated release rows cannot change an anti join, so the release is not made distinct.
SELECT t.tid, t.item AS node, 'original item not covered by the release' AS problem
FROM tx AS t
ANTI JOIN (
    SELECT r.tid, n.id, n.last
    FROM release AS r
    JOIN node AS n ON n.id = r.node
) AS c ON c.tid = t.tid AND t.item BETWEEN c.id AND c.last
ORDER BY t.tid, t.item;

-- name: verify_matching
-- Multiset releases: subtrees holding more released copies than original items (Hall's
-- condition, which on a tree's nested subtrees decides whether each copy has its own item).
WITH released AS (
    SELECT r.tid, c.ancestor AS node, count(*) AS copies
    FROM release AS r
    JOIN closure AS c ON c.node = r.node
    GROUP BY r.tid, c.ancestor
), original AS (
    SELECT t.tid, c.ancestor AS node, count(*) AS items
    FROM tx AS t
    JOIN closure AS c ON c.node = t.item
    GROUP BY t.tid, c.ancestor
)
SELECT r.tid, r.node, 'more released copies than original items under this node' AS problem
FROM released AS r
LEFT JOIN original AS o USING (tid, node)
WHERE r.copies > coalesce(o.items, 0)
ORDER BY r.tid, r.node;

-- name: k_anonymity_classes
-- Every equivalence class of the release (identical released transactions) with its size;
-- transactions with nothing released form the class of the empty itemset.
CREATE OR REPLACE TABLE release_classes AS
WITH per_tx AS (
    SELECT t.tid, coalesce(list(r.node ORDER BY r.node) FILTER (r.node IS NOT NULL), []) AS itemset
    FROM tids AS t
    LEFT JOIN release AS r ON r.tid = t.tid
    GROUP BY t.tid
)
SELECT itemset, count(*) AS support
FROM per_tx
GROUP BY itemset
ORDER BY support, itemset;

-- name: k_anonymity_classes :spark
-- The same classes on Spark: sqlglot drops the ORDER BY of an ordered list() aggregate, so the
-- itemset is the sorted collected list (NULLs of transactions with nothing released are not
-- collected).
CREATE OR REPLACE TABLE release_classes AS
WITH per_tx AS (
    SELECT t.tid, list_sort(list(r.node)) AS itemset
    FROM tids AS t
    LEFT JOIN release AS r ON r.tid = t.tid
    GROUP BY t.tid
)
SELECT itemset, count(*) AS support
FROM per_tx
GROUP BY itemset
ORDER BY support, itemset;

-- name: k_anonymity_violations
-- Equivalence classes with fewer than $k transactions.
CREATE OR REPLACE TABLE violations_k AS
SELECT itemset, support
FROM release_classes
WHERE support < $k
ORDER BY support, itemset;

-- name: k_anonymity_summary
-- The release's equivalence classes, those under k, and the transactions in those.
SELECT (SELECT count(*) FROM release_classes) AS classes, count(*) AS failing,
       coalesce(sum(support), 0) AS transactions
FROM violations_k;

-- name: release_identity
-- The data as its own release (every item released as itself), so that verify can check the
-- data before any anonymization.
CREATE OR REPLACE TABLE release AS SELECT tid, item AS node FROM tx;

-- name: release_set
-- The released (tid, node) pairs, each once: what k^m-anonymity counts.
CREATE OR REPLACE TABLE release_set AS
SELECT DISTINCT tid, node FROM release;

-- name: release_labelled
-- The current run's release with original tid labels and node labels, in tid order.
SELECT t.label AS tid, n.label AS item
FROM release AS r
JOIN tids AS t ON t.tid = r.tid
JOIN node AS n ON n.id = r.node
ORDER BY r.tid, r.node;

-- name: release_per_transaction
-- One row per original transaction with the list of its released item labels (possibly empty).
SELECT t.label AS tid,
       coalesce(list(n.label ORDER BY r.node) FILTER (WHERE n.label IS NOT NULL), []) AS items
FROM tids AS t
LEFT JOIN release AS r ON r.tid = t.tid
LEFT JOIN node AS n ON n.id = r.node
GROUP BY t.tid, t.label
ORDER BY t.tid;

-- name: release_per_transaction :spark
-- The same rows on Spark, which drops the ORDER BY of an aggregate: the (node, label) pairs
-- are collected, sorted by node and then their labels taken.
SELECT t.label AS tid,
       coalesce(list_transform(
           list_sort(list({'node': r.node, 'label': n.label}) FILTER (WHERE n.label IS NOT NULL)),
           x -> x.label
       ), []) AS items
FROM tids AS t
LEFT JOIN release AS r ON r.tid = t.tid
LEFT JOIN node AS n ON n.id = r.node
GROUP BY t.tid, t.label
ORDER BY t.tid;

-- name: release_file_columns_csv
-- The columns of a release CSV file $path (`column_name`, `column_type`), all read as text.
DESCRIBE SELECT * FROM read_csv($path, header = true, all_varchar = true);

-- name: release_file_columns_parquet
-- The columns of a release Parquet file $path (`column_name`, `column_type`).
DESCRIBE SELECT * FROM read_parquet($path);

-- name: release_from_labels
-- A release read from a file of (tid, item) labels, mapped to tid and node ids.
CREATE OR REPLACE TABLE release AS
SELECT t.tid, n.id AS node
FROM release_source AS s
JOIN tids AS t ON CAST(t.label AS VARCHAR) = s.tid_label
JOIN node AS n ON n.label = s.label;

-- name: release_unknown_labels
-- Labels of a release file that name no transaction or no hierarchy node (the first 5 of
-- each, each once, in label order).
(SELECT DISTINCT 'tid' AS kind, s.tid_label AS label FROM release_source AS s
 ANTI JOIN tids AS t ON CAST(t.label AS VARCHAR) = s.tid_label ORDER BY label LIMIT 5)
UNION ALL
(SELECT DISTINCT 'item' AS kind, s.label FROM release_source AS s
 ANTI JOIN node AS n ON n.label = s.label ORDER BY label LIMIT 5);

-- name: release_frequent
-- Released (tid, node) rows whose node alone occurs in >= $k transactions: the only items an
-- itemset of two or more can hold without containing an already-reported infrequent item.
CREATE OR REPLACE TABLE release_frequent AS
SELECT s.tid, s.node
FROM release_set AS s
SEMI JOIN (SELECT node FROM release_set GROUP BY node HAVING count(*) >= $k) AS f USING (node);

-- name: km_violations_per_size
-- How many violating itemsets of each size (`itemsets` by `size`) the k^m check found.
SELECT size, count(*) AS itemsets FROM violations_km GROUP BY size;

-- name: violations_validity_shown
-- The first $n problems of validity, with their original tid and node labels.
SELECT t.label AS tid, n.label AS node, v.problem
FROM violations_validity AS v
LEFT JOIN tids AS t ON t.tid = v.tid
LEFT JOIN node AS n ON n.id = v.node
ORDER BY v.tid, v.node
LIMIT $n;

-- name: violations_k_shown
-- The first $n classes under k (fewest transactions first), their itemsets as node labels.
WITH v AS (
    SELECT row_number() OVER (ORDER BY support, itemset) AS rn, *
    FROM violations_k ORDER BY rn LIMIT $n
), u AS (
    SELECT rn, unnest(itemset) AS id, generate_subscripts(itemset, 1) AS pos FROM v
)
SELECT coalesce((SELECT list(n.label ORDER BY u.pos) FROM u JOIN node AS n ON n.id = u.id
                 WHERE u.rn = v.rn), []) AS itemset, support
FROM v
ORDER BY rn;

-- name: violations_km_shown
-- The first $n itemsets under k (least support first), with their size, as node labels.
WITH v AS (
    SELECT row_number() OVER (ORDER BY support, itemset) AS rn, *
    FROM violations_km ORDER BY rn LIMIT $n
), u AS (
    SELECT rn, unnest(itemset) AS id, generate_subscripts(itemset, 1) AS pos FROM v
)
SELECT size, coalesce((SELECT list(n.label ORDER BY u.pos) FROM u JOIN node AS n ON n.id = u.id
                       WHERE u.rn = v.rn), []) AS itemset, support
FROM v
ORDER BY rn;
