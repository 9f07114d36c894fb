-- The balanced fan-out builder (`--fanout F`, issue 17): leaves put in builder order, then
-- grouped F by F, one statement per level. Temporary tables only: the built tree is stored like
-- any loaded hierarchy afterwards. Node labels are given in Python (hierarchy.label_fanout).

-- name: fanout_leaves
-- Level 0 of the tree: every item of the dataset, numbered 0.. in builder order. With
-- $by_support the most frequent items come first (support = transactions holding the item);
-- ties, and the whole order otherwise, follow the natural label order of
-- hierarchy.natural_key: integer labels (ASCII digits, optional minus) numerically and first,
-- however many digits they have, then the other labels by code point; equal numbers by label.
CREATE OR REPLACE TEMP TABLE fanout_tree AS
WITH supports AS (
    -- tx_raw holds each (tid, label) pair once (make_tx_raw), so rows are transactions: a
    -- count(DISTINCT tid) here took 7 s of a 10^7-transaction load
    SELECT label, count(*) AS support
    FROM tx_raw
    GROUP BY label
), keyed AS (
    SELECT label, support,
           regexp_matches(label, '^-?[0-9]+$') AS num,
           ltrim(ltrim(label, '-'), '0') AS mag
    FROM supports
), signed AS (
    SELECT *, num AND starts_with(label, '-') AND mag <> '' AS neg
    FROM keyed
)
SELECT 0 AS level, pos, pos AS node, label
FROM (
    SELECT label,
           CAST(row_number() OVER (
               ORDER BY CASE WHEN $by_support THEN support END DESC,
                        CASE WHEN num THEN 0 ELSE 1 END,
                        CASE WHEN num AND neg THEN -length(mag) WHEN num THEN length(mag) END,
                        CASE WHEN num AND neg THEN mag END DESC,
                        CASE WHEN num AND NOT neg THEN mag END,
                        label
           ) - 1 AS BIGINT) AS pos
    FROM signed
);

-- name: fanout_level
-- The next level: the nodes of level $level grouped $fanout by $fanout in position order. A
-- group of several nodes becomes a new node (id $level + 1 times $leaves plus its position,
-- unique across levels, no label yet); a node alone in its group moves up as it is.
INSERT INTO fanout_tree
SELECT $level + 1 AS level,
       pos // $fanout AS pos,
       CASE WHEN count(*) = 1 THEN min(node) ELSE ($level + 1) * $leaves + pos // $fanout END,
       CASE WHEN count(*) = 1 THEN min(label) END
FROM fanout_tree
WHERE level = $level
GROUP BY pos // $fanout;

-- name: fanout_edges
-- Every (child, parent) edge of the built tree in the order its parents were made (level, then
-- position; the root, parent NULL, last), with the positions of the first and last leaf each
-- parent covers (a node at level L, position p spans leaves p*F^L .. (p+1)*F^L - 1). Leaves
-- carry their labels.
SELECT c.node AS child, p.node AS parent, c.label AS child_label,
       p.pos * CAST(pow($fanout, p.level) AS BIGINT) AS lo,
       least((p.pos + 1) * CAST(pow($fanout, p.level) AS BIGINT), $leaves) - 1 AS hi
FROM fanout_tree AS c
LEFT JOIN fanout_tree AS p ON p.level = c.level + 1 AND p.pos = c.pos // $fanout
WHERE (p.node IS NOT NULL AND p.node <> c.node) OR (p.node IS NULL AND c.level = $top)
ORDER BY p.node IS NULL, p.level, p.pos, c.pos;

-- name: fanout_drop
-- The builder's scratch table, gone once the tree is read.
DROP TABLE IF EXISTS temp.fanout_tree;

-- name: fanout_drop :spark
-- On Spark the scratch table is a table of the run's database (Spark has no temp schema).
DROP TABLE IF EXISTS fanout_tree;
