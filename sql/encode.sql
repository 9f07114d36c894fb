-- Turning a loaded source (temp table `source_pairs(tid_label, label)`) into the dataset tables.

-- name: source_problems
-- Rows of the source with a missing tid or item (NULL or blank), counted.
SELECT count(*) FILTER (WHERE tid_label IS NULL OR trim(tid_label) = '') AS missing_tid,
       count(*) FILTER (WHERE label IS NULL OR trim(label) = '') AS missing_item,
       count(*) AS rows,
       count(*) - count(DISTINCT (tid_label, trim(label))) AS duplicate_rows,
       bool_and(TRY_CAST(tid_label AS BIGINT) IS NOT NULL) AS numeric_tids
FROM source_pairs;

-- name: make_tids
-- One row per transaction: its integer tid (the tid itself when integral) and its label.
CREATE OR REPLACE TABLE tids AS
SELECT CASE WHEN $numeric THEN CAST(tid_label AS BIGINT)
            ELSE dense_rank() OVER (ORDER BY tid_label) - 1 END AS tid,
       tid_label AS label
FROM (SELECT DISTINCT tid_label FROM source_pairs)
ORDER BY tid;

-- name: make_tx_raw
-- The transactions as (tid, item label), duplicates collapsed (set semantics).
CREATE OR REPLACE TABLE tx_raw AS
SELECT DISTINCT t.tid, trim(s.label) AS label
FROM source_pairs AS s
JOIN tids AS t ON t.label = s.tid_label
ORDER BY t.tid, label;
