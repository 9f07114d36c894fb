-- A disassociated release folder read back and checked against the data (#40): its files as
-- the release's tables (from the temporary view `folder_file` over one file), then what can
-- be checked without the records' membership, which the folder never holds. Each check
-- appends its offending rows to `dv_violations(problem, unit, detail)`, as the run's verifier
-- does (`sql/verify_disassociation.sql`).

-- name: folder_clusters
-- The folder's clusters file as `clusters(cluster, size)`.
CREATE OR REPLACE TEMP TABLE clusters AS
SELECT CAST(cluster AS INTEGER) AS cluster, CAST(size AS BIGINT) AS size FROM folder_file;

-- name: folder_record_chunks
-- The folder's record chunks file as `record_chunks(cluster, chunk, row, item)`.
CREATE OR REPLACE TEMP TABLE record_chunks AS
SELECT CAST(cluster AS INTEGER) AS cluster, CAST(chunk AS INTEGER) AS chunk,
       CAST("row" AS BIGINT) AS "row", CAST(item AS VARCHAR) AS item
FROM folder_file;

-- name: folder_term_chunks
-- The folder's term chunks file as `term_chunks(cluster, item)`.
CREATE OR REPLACE TEMP TABLE term_chunks AS
SELECT CAST(cluster AS INTEGER) AS cluster, CAST(item AS VARCHAR) AS item FROM folder_file;

-- name: folder_joint_clusters
-- The folder's joint clusters file as `joint_clusters(joint, cluster)`.
CREATE OR REPLACE TEMP TABLE joint_clusters AS
SELECT CAST(joint AS INTEGER) AS joint, CAST(cluster AS INTEGER) AS cluster FROM folder_file;

-- name: folder_shared_chunks
-- The folder's shared chunks file as `shared_chunks(joint, chunk, row, item)`.
CREATE OR REPLACE TEMP TABLE shared_chunks AS
SELECT CAST(joint AS INTEGER) AS joint, CAST(chunk AS INTEGER) AS chunk,
       CAST("row" AS BIGINT) AS "row", CAST(item AS VARCHAR) AS item
FROM folder_file;

-- name: folder_joint_clusters_empty
-- A release without refinement: no joint clusters.
CREATE OR REPLACE TEMP TABLE joint_clusters (joint INTEGER, cluster INTEGER);

-- name: folder_shared_chunks_empty
-- A release without refinement: no shared chunks.
CREATE OR REPLACE TEMP TABLE shared_chunks (joint INTEGER, chunk INTEGER, "row" BIGINT, item VARCHAR);

-- name: folder_structure
-- The tables hold together: no empty value, every cluster released once with a positive size,
-- every chunk of a released cluster, every shared chunk of a released joint cluster, every
-- cluster in at most one joint cluster, every label one of the data's, no item repeated in
-- a row nor released in two places (record chunks, term chunk) of one cluster.
INSERT INTO dv_violations
SELECT 'empty value in a release file', cluster, CAST(size AS VARCHAR)
FROM clusters WHERE cluster IS NULL OR size IS NULL
UNION ALL
SELECT 'empty value in a release file', cluster, item
FROM record_chunks WHERE cluster IS NULL OR chunk IS NULL OR "row" IS NULL OR item IS NULL
UNION ALL
SELECT 'empty value in a release file', cluster, item
FROM term_chunks WHERE cluster IS NULL OR item IS NULL
UNION ALL
SELECT 'empty value in a release file', cluster, CAST(joint AS VARCHAR)
FROM joint_clusters WHERE joint IS NULL OR cluster IS NULL
UNION ALL
SELECT 'empty value in a release file', joint, item
FROM shared_chunks WHERE joint IS NULL OR chunk IS NULL OR "row" IS NULL OR item IS NULL
UNION ALL
SELECT 'cluster released twice', cluster, NULL
FROM clusters GROUP BY cluster HAVING count(*) > 1
UNION ALL
SELECT 'cluster of no record', cluster, CAST(size AS VARCHAR)
FROM clusters WHERE size < 1
UNION ALL
SELECT 'chunk of a cluster not released', x.cluster, NULL
FROM (SELECT cluster FROM record_chunks UNION SELECT cluster FROM term_chunks
      UNION SELECT cluster FROM joint_clusters) AS x
ANTI JOIN clusters AS c ON c.cluster = x.cluster
UNION ALL
SELECT 'shared chunk of a joint cluster not released', s.joint, NULL
FROM (SELECT DISTINCT joint FROM shared_chunks) AS s
ANTI JOIN joint_clusters AS j ON j.joint = s.joint
UNION ALL
SELECT 'cluster in two joint clusters', cluster, NULL
FROM joint_clusters GROUP BY cluster HAVING count(*) > 1
UNION ALL
SELECT 'released label not in the data', unit, label
FROM dv_rows WHERE item IS NULL AND label IS NOT NULL
UNION ALL
SELECT 'released label not in the data', t.cluster, t.item
FROM term_chunks AS t ANTI JOIN dv_label AS l ON l.label = t.item
UNION ALL
SELECT 'item repeated in a row', unit, label
FROM dv_rows GROUP BY kind, unit, chunk, "row", label HAVING count(*) > 1
UNION ALL
SELECT 'item in two chunks of a cluster', cluster, item
FROM (SELECT DISTINCT cluster, chunk, item FROM record_chunks
      UNION ALL
      SELECT cluster, NULL, item FROM term_chunks)
GROUP BY cluster, item
HAVING count(*) > 1;

-- name: folder_sizes
-- The clusters' sizes against the data and the chunks: at least $k records each, summing to
-- the data's transactions; no chunk with more rows than its (joint) cluster has records (a
-- record has at most one row in a chunk); and enough rows and terms that no record is empty
-- (each record-chunk or shared row is one record, each term-chunk term at most min(size,
-- k-1) of them).
INSERT INTO dv_violations
SELECT 'cluster of fewer than k records', cluster, CAST(size AS VARCHAR)
FROM clusters WHERE size < $k
UNION ALL
SELECT 'cluster sizes do not sum to the transactions', NULL,
       CAST(sum(size) AS VARCHAR) || ' of ' || CAST((SELECT count(*) FROM tids) AS VARCHAR)
FROM clusters
HAVING sum(size) IS DISTINCT FROM (SELECT count(*) FROM tids)
UNION ALL
SELECT 'chunk with more rows than its cluster has records', r.unit,
       r.kind || ' chunk ' || CAST(r.chunk AS VARCHAR)
FROM (SELECT kind, unit, chunk, count(DISTINCT "row") AS rows FROM dv_rows GROUP BY ALL) AS r
LEFT JOIN (
    SELECT 'record' AS kind, cluster AS unit, size FROM clusters
    UNION ALL
    SELECT 'shared', j.joint, sum(c.size)
    FROM joint_clusters AS j JOIN clusters AS c USING (cluster)
    GROUP BY j.joint
) AS s ON s.kind = r.kind AND s.unit = r.unit
WHERE r.rows > coalesce(s.size, 0)
UNION ALL
SELECT 'records left empty by the release', c.cluster, CAST(c.size AS VARCHAR)
FROM clusters AS c
LEFT JOIN (SELECT unit, count(DISTINCT (chunk, "row")) AS rows FROM dv_rows
           WHERE kind = 'record' GROUP BY unit) AS r ON r.unit = c.cluster
LEFT JOIN (SELECT cluster, count(*) AS terms FROM term_chunks GROUP BY cluster) AS t
  ON t.cluster = c.cluster
LEFT JOIN joint_clusters AS j ON j.cluster = c.cluster
LEFT JOIN (SELECT unit, count(DISTINCT (chunk, "row")) AS rows FROM dv_rows
           WHERE kind = 'shared' GROUP BY unit) AS s ON s.unit = j.joint
WHERE c.size > coalesce(r.rows, 0) + coalesce(t.terms, 0) * least(c.size, $k - 1)
               + coalesce(s.rows, 0);

-- name: folder_supports
-- Every item's support in the data against the release: its rows in record and shared
-- chunks (exact) plus its term chunks (each held by 1..k-1 records of its cluster). Released
-- more often than the data holds it is a violation; held more often than the release allows
-- is one per item when the manifest declares no suppression, else the excess over all items
-- must not pass the $suppressed occurrences declared, nor these the data's occurrences left.
INSERT INTO dv_violations
WITH data AS (
    SELECT l.id AS item, count(*) AS support
    FROM tx_raw AS t JOIN dv_label AS l ON l.label = t.label
    GROUP BY l.id
), released AS (
    SELECT item, count(*) AS rows FROM dv_rows WHERE item IS NOT NULL GROUP BY item
), terms AS (
    SELECT l.id AS item, count(*) AS terms
    FROM term_chunks AS t JOIN dv_label AS l ON l.label = t.item
    GROUP BY l.id
), figures AS (
    SELECT d.item, d.support, coalesce(r.rows, 0) AS rows, coalesce(t.terms, 0) AS terms
    FROM data AS d
    LEFT JOIN released AS r ON r.item = d.item
    LEFT JOIN terms AS t ON t.item = d.item
), labelled AS (
    SELECT f.*, l.label, greatest(f.support - f.rows - f.terms * ($k - 1), 0) AS excess
    FROM figures AS f JOIN dv_label AS l ON l.id = f.item
)
SELECT 'item released more often than the data holds it', NULL, label
FROM labelled WHERE rows + terms > support
UNION ALL
SELECT 'item held more often than the release allows', NULL, label
FROM labelled WHERE excess > 0 AND $suppressed = 0
UNION ALL
SELECT 'occurrences unaccounted for beyond those suppressed', NULL,
       CAST(sum(excess) AS VARCHAR) || ' > ' || CAST($suppressed AS VARCHAR)
FROM labelled
HAVING $suppressed > 0 AND sum(excess) > $suppressed
UNION ALL
SELECT 'more occurrences suppressed than the release leaves', NULL,
       CAST($suppressed AS VARCHAR) || ' > '
           || CAST(sum(support - rows - terms) AS VARCHAR)
FROM labelled
HAVING $suppressed > sum(support - rows - terms);

-- name: folder_pairs
-- No two items of one chunk are released together in more rows, over all chunks, than the
-- data's transactions that hold both (a chunk row is one record's, and a record holds a pair
-- in one chunk at most).
INSERT INTO dv_violations
WITH pairs AS (
    SELECT a.item AS a, b.item AS b, count(*) AS rows
    FROM dv_rows AS a
    JOIN dv_rows AS b
      ON b.kind = a.kind AND b.unit = a.unit AND b.chunk = a.chunk AND b."row" = a."row"
     AND b.item > a.item
    GROUP BY a.item, b.item
), holders AS (
    SELECT l.id AS item, t.tid
    FROM tx_raw AS t JOIN dv_label AS l ON l.label = t.label
    SEMI JOIN (SELECT a AS item FROM pairs UNION SELECT b FROM pairs) AS p ON p.item = l.id
), data AS (
    SELECT x.item AS a, y.item AS b, count(*) AS support
    FROM holders AS x
    JOIN holders AS y ON y.tid = x.tid AND y.item > x.item
    SEMI JOIN pairs AS p ON p.a = x.item AND p.b = y.item
    GROUP BY x.item, y.item
)
SELECT 'two items released together more often than the data holds them', NULL,
       la.label || ' + ' || lb.label
FROM pairs AS p
LEFT JOIN data AS d ON d.a = p.a AND d.b = p.b
JOIN dv_label AS la ON la.id = p.a
JOIN dv_label AS lb ON lb.id = p.b
WHERE p.rows > coalesce(d.support, 0);
