-- Turning a loaded source (temp table `source_pairs(tid_label, label)`) into a dataset's tables.
-- Transaction ids keep the type and text of the source; item labels are kept exactly.

-- name: source_problems
-- Rows of the source with a missing tid or item (NULL, or only white space), counted, and the
-- rows that repeat a (tid, item) pair.
SELECT count(*) FILTER (
           WHERE tid_label IS NULL OR trim(CAST(tid_label AS VARCHAR)) = ''
       ) AS missing_tid,
       count(*) FILTER (WHERE label IS NULL OR trim(label) = '') AS missing_item,
       count(*) AS rows,
       count(*) - count(DISTINCT (tid_label, label)) AS duplicate_rows
FROM source_pairs;

-- name: source_fingerprint
-- An order-free fingerprint of the distinct (tid, item) pairs: their count, the sum and the xor
-- of their hashes, and the type of the tids.
SELECT count(*) AS pairs,
       CAST(coalesce(sum(h), 0) AS VARCHAR) AS hash_sum,
       CAST(coalesce(bit_xor(h), 0) AS VARCHAR) AS hash_xor,
       (SELECT any_value(typeof(tid_label)) FROM source_pairs) AS tid_type
FROM (
    SELECT hash(CAST(tid_label AS VARCHAR), label) AS h
    FROM (SELECT DISTINCT tid_label, label FROM source_pairs)
);

-- name: make_tids
-- One row per transaction: its internal integer id (rank in the natural order of the ids:
-- numbers by value, then text) and its id as the source gave it.
CREATE TABLE tids AS
SELECT CAST(dense_rank() OVER (
           ORDER BY TRY_CAST(tid_label AS DOUBLE) NULLS LAST, CAST(tid_label AS VARCHAR)
       ) - 1 AS BIGINT) AS tid,
       tid_label AS label
FROM (SELECT DISTINCT tid_label FROM source_pairs)
ORDER BY tid;

-- name: make_tx_raw
-- The transactions as (tid, item label), duplicates collapsed (set semantics).
CREATE TABLE tx_raw AS
SELECT DISTINCT t.tid, s.label
FROM source_pairs AS s
JOIN tids AS t ON t.label = s.tid_label
ORDER BY t.tid, s.label;
