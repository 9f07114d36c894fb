-- Turning a loaded source (temp table `source_pairs(tid_label, label)`) into a dataset's tables.
-- Transaction ids keep the type and text of the source; item labels are kept exactly.

-- name: source_distinct
-- The distinct (tid, item) pairs of the source, each with how many rows gave it: grouped once,
-- then checked, fingerprinted and numbered from here.
CREATE OR REPLACE TEMP TABLE source_distinct AS
SELECT tid_label, label, count(*) AS n
FROM source_pairs
GROUP BY tid_label, label;

-- name: source_check
-- Rows of the source with a missing tid or item (NULL, or only white space), all rows, rows
-- that repeat a pair; and an order-free fingerprint of the distinct pairs: their count, the sum
-- and the xor of their hashes, the tids' type. An integer tid is never blank as text: the
-- typeof() test is settled when the statement is planned, so integer tids (line numbers, most
-- Parquet ids) skip casting every row to text (8 of 31 ms on BMS-WebView-2's 358,278 pairs).
SELECT coalesce(sum(n) FILTER (
           WHERE tid_label IS NULL OR (
               typeof(tid_label) NOT IN ('TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 'HUGEINT',
                                         'UTINYINT', 'USMALLINT', 'UINTEGER', 'UBIGINT', 'UHUGEINT')
               AND trim(CAST(tid_label AS VARCHAR)) = ''
           )
       ), 0) AS missing_tid,
       coalesce(sum(n) FILTER (WHERE label IS NULL OR trim(label) = ''), 0) AS missing_item,
       coalesce(sum(n), 0) AS rows,
       coalesce(sum(n), 0) - count(*) AS duplicate_rows,
       count(*) AS pairs,
       CAST(coalesce(sum(hash(CAST(tid_label AS VARCHAR), label)), 0) AS VARCHAR) AS hash_sum,
       CAST(coalesce(bit_xor(hash(CAST(tid_label AS VARCHAR), label)), 0) AS VARCHAR) AS hash_xor,
       any_value(typeof(tid_label)) AS tid_type
FROM source_distinct;

-- name: source_check :spark
-- The same checks on Spark, without the fingerprint: a Spark run keeps no registry to find a
-- dataset by, and Spark's hash is not DuckDB's.
SELECT coalesce(sum(n) FILTER (
           WHERE tid_label IS NULL OR trim(CAST(tid_label AS VARCHAR)) = ''
       ), 0) AS missing_tid,
       coalesce(sum(n) FILTER (WHERE label IS NULL OR trim(label) = ''), 0) AS missing_item,
       coalesce(sum(n), 0) AS rows,
       coalesce(sum(n), 0) - count(*) AS duplicate_rows,
       count(*) AS pairs
FROM source_distinct;

-- name: make_tids
-- One row per transaction: its internal integer id (rank in the natural order of the ids:
-- numbers by value, then text) and its id as the source gave it.
CREATE TABLE tids AS
SELECT CAST(dense_rank() OVER (
           ORDER BY TRY_CAST(tid_label AS DOUBLE) NULLS LAST, CAST(tid_label AS VARCHAR)
       ) - 1 AS BIGINT) AS tid,
       tid_label AS label
FROM (SELECT DISTINCT tid_label FROM source_distinct)
ORDER BY tid;

-- name: make_tids :spark
-- The same numbering on Spark without a window over every transaction (which runs on one
-- task): Spark's ORDER BY is a distributed sort into ordered parts, numbered within each part
-- by monotonically_increasing_id() (the part's index above bit 33, the row's place in it
-- below); each part's first number is the count of the parts before it. The numbered ids are
-- kept first (`tid_order`), so both reads see the same parts.
CREATE OR REPLACE TABLE tid_order AS
SELECT tid_label, monotonically_increasing_id() AS mono
FROM (
    SELECT DISTINCT tid_label
    FROM source_distinct
    ORDER BY TRY_CAST(tid_label AS DOUBLE) NULLS LAST, CAST(tid_label AS VARCHAR)
);
CREATE TABLE tids AS
WITH part AS (
    SELECT mono >> 33 AS part, count(*) AS n
    FROM tid_order
    GROUP BY mono >> 33
), part_start AS (
    SELECT part, sum(n) OVER (ORDER BY part) - n AS start
    FROM part
)
SELECT CAST(s.start + (o.mono & 8589934591) AS BIGINT) AS tid, o.tid_label AS label
FROM tid_order AS o
JOIN part_start AS s ON s.part = o.mono >> 33;
DROP TABLE tid_order;

-- name: make_tx_raw
-- The transactions as (tid, item label), duplicates collapsed (set semantics) by source_distinct.
-- Unordered: every reader groups or joins it, and `tx` is sorted when it is encoded (a sort
-- here took 3-4 s of a 10^7-transaction load).
CREATE TABLE tx_raw AS
SELECT t.tid, s.label
FROM source_distinct AS s
JOIN tids AS t ON t.label = s.tid_label;

-- name: make_line_tids
-- `make_tids` for a line file: its transactions are the lines 0..$transactions - 1 (every line
-- but a blank last one holds an item, checked when it is read), so each tid is its line
-- number and there is nothing to rank (9-11 ms of a BMS-WebView load).
CREATE TABLE tids AS
SELECT range AS tid, range AS label
FROM range($transactions);

-- name: make_line_tx_raw
-- `make_tx_raw` for a line file: the tid is the line number already, no join needed.
CREATE TABLE tx_raw AS
SELECT tid_label AS tid, label
FROM source_distinct;
