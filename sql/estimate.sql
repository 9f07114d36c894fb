-- What an analyst can count from a release alone (#42): for every itemset of `queries(qid,
-- item)` (one row per item, labels as the release writes them), its estimated support and the
-- lower and upper bounds the release proves. `setanon estimate` runs these blocks; an analyst
-- can run them in DuckDB on the release files, with views named as below (README, "Counting
-- from a release").
--
-- A disassociated release reads `clusters(cluster, size)`, `record_chunks(cluster, chunk,
-- row, item)`, `term_chunks(cluster, item)`, `joint_clusters(joint, cluster)` and
-- `shared_chunks(joint, chunk, row, item)` (the last two empty without refinement) and $k;
-- a generalized release reads `release(tid, item)` and its hierarchy `hierarchy(child,
-- parent)`.

-- name: est_dis_rows
-- Every released row of every chunk: a record chunk's rows belong to its cluster, a shared
-- chunk's to its joint cluster (`unit`).
CREATE OR REPLACE TEMP TABLE est_dis_rows AS
SELECT 'record' AS kind, cluster AS unit, chunk, "row", item FROM record_chunks
UNION ALL
SELECT 'shared', joint, chunk, "row", item FROM shared_chunks;

-- name: est_dis_clusters
-- Every cluster's facts: size n, record-chunk rows R, term-chunk terms T, cap = min(n, k-1)
-- (the most records a term-chunk term may have), the shared rows its joint cluster may put
-- in it, and the term chunk's occurrences: at least T, and at least one per record left
-- without a row in every chunk (a record is never empty). Those records are at least
-- n - R - min(n, shared rows) in every reconstruction; the estimate takes the number
-- expected when the chunks' rows fall on records independently, n * prod(1 - rows/size),
-- when it is larger. A term-chunk term's estimated support is occurrences / T, at most cap.
CREATE OR REPLACE TEMP TABLE est_dis_clusters AS
WITH joint_size AS (
    SELECT j.joint, sum(c.size) AS n
    FROM joint_clusters AS j
    JOIN clusters AS c ON c.cluster = j.cluster
    GROUP BY j.joint
), chunk_rows AS (
    SELECT kind, unit, chunk, count(DISTINCT "row") AS rows FROM est_dis_rows GROUP BY ALL
), record AS (
    SELECT c.cluster, sum(r.rows) AS rows, product(1 - r.rows / c.size) AS empty_share
    FROM chunk_rows AS r
    JOIN clusters AS c ON c.cluster = r.unit
    WHERE r.kind = 'record'
    GROUP BY c.cluster
), shared AS (
    SELECT r.unit AS joint, sum(r.rows) AS rows, product(1 - r.rows / z.n) AS empty_share
    FROM chunk_rows AS r
    JOIN joint_size AS z ON z.joint = r.unit
    WHERE r.kind = 'shared'
    GROUP BY r.unit
), terms AS (
    SELECT cluster, count(DISTINCT item) AS terms FROM term_chunks GROUP BY cluster
), facts AS (
    SELECT c.cluster, c.size AS n, coalesce(r.rows, 0) AS chunk_rows,
           coalesce(t.terms, 0) AS terms, least(c.size, $k - 1) AS cap,
           coalesce(s.rows, 0) AS shared_rows,
           greatest(0, c.size - coalesce(r.rows, 0) - least(c.size, coalesce(s.rows, 0)))
               AS empty_least,
           c.size * coalesce(r.empty_share, 1.0) * coalesce(s.empty_share, 1.0)
               AS empty_expected
    FROM clusters AS c
    LEFT JOIN record AS r ON r.cluster = c.cluster
    LEFT JOIN terms AS t ON t.cluster = c.cluster
    LEFT JOIN joint_clusters AS j ON j.cluster = c.cluster
    LEFT JOIN shared AS s ON s.joint = j.joint
)
SELECT *, greatest(terms, empty_least, empty_expected) AS term_occurrences,
       CASE WHEN terms > 0
            THEN least(cap, greatest(terms, empty_least, empty_expected) / terms) END
           AS term_support
FROM facts;

-- name: est_dis_places
-- Where each item is released in each cluster: its record chunk, a shared chunk of the
-- cluster's joint cluster, or the term chunk; the size of the unit the chunk's rows belong to.
CREATE OR REPLACE TEMP TABLE est_dis_places AS
WITH joint_size AS (
    SELECT j.joint, sum(c.size) AS n
    FROM joint_clusters AS j
    JOIN clusters AS c ON c.cluster = j.cluster
    GROUP BY j.joint
), chunk_items AS (
    SELECT DISTINCT kind, unit, chunk, item FROM est_dis_rows
)
SELECT r.unit AS cluster, r.item, r.kind, r.unit, r.chunk, c.size AS unit_size
FROM chunk_items AS r
JOIN clusters AS c ON c.cluster = r.unit
WHERE r.kind = 'record'
UNION ALL
SELECT j.cluster, r.item, r.kind, r.unit, r.chunk, z.n
FROM chunk_items AS r
JOIN joint_clusters AS j ON j.joint = r.unit
JOIN joint_size AS z ON z.joint = r.unit
WHERE r.kind = 'shared'
UNION ALL
SELECT DISTINCT t.cluster, t.item, 'term', t.cluster, NULL, c.size
FROM term_chunks AS t
JOIN clusters AS c ON c.cluster = t.cluster;

-- name: est_dis_parts
-- For every query and every cluster releasing all its items, each part of the query: the
-- items it has in one chunk with the rows holding them all there (`rows`), or its items in
-- the term chunk (`kind` 'term', `rows` NULL, `n_items` of them).
CREATE OR REPLACE TEMP TABLE est_dis_parts AS
WITH wanted AS (
    SELECT DISTINCT qid, item FROM queries
), sizes AS (
    SELECT qid, count(*) AS n_items FROM wanted GROUP BY qid
), placed AS NOT MATERIALIZED (
    SELECT w.qid, p.* FROM wanted AS w JOIN est_dis_places AS p ON p.item = w.item
), complete AS (
    -- the clusters releasing every item of a query (a one-item query: every place of it)
    SELECT w.qid, p.cluster
    FROM wanted AS w
    JOIN est_dis_places AS p ON p.item = w.item
    JOIN sizes AS s ON s.qid = w.qid
    WHERE s.n_items > 1
    GROUP BY w.qid, p.cluster
    HAVING count(*) = any_value(s.n_items)
    UNION ALL
    SELECT w.qid, p.cluster
    FROM wanted AS w
    JOIN est_dis_places AS p ON p.item = w.item
    JOIN sizes AS s ON s.qid = w.qid
    WHERE s.n_items = 1
), parts AS (
    SELECT p.qid, p.cluster, p.kind, p.unit, p.chunk, any_value(p.unit_size) AS unit_size,
           count(*) AS n_items
    FROM placed AS p
    SEMI JOIN complete AS c ON c.qid = p.qid AND c.cluster = p.cluster
    GROUP BY p.qid, p.cluster, p.kind, p.unit, p.chunk
), part_items AS (
    -- each chunk part's items, once (a shared chunk's item is placed once per cluster of its
    -- joint cluster: matched per placement, its rows were joined that many times over)
    SELECT DISTINCT w.qid, w.kind, w.unit, w.chunk, w.item, p.n_items
    FROM parts AS p
    JOIN placed AS w ON w.qid = p.qid AND w.cluster = p.cluster AND w.kind = p.kind
                    AND w.unit = p.unit AND w.chunk = p.chunk
    WHERE p.kind <> 'term'
), holding AS (
    -- the rows of each chunk part of 2+ items holding every item the query has in that chunk
    -- (an item is in a row at most once)
    SELECT p.qid, p.kind, p.unit, p.chunk, r."row"
    FROM part_items AS p
    JOIN est_dis_rows AS r ON r.kind = p.kind AND r.unit = p.unit AND r.chunk = p.chunk
                          AND r.item = p.item
    WHERE p.n_items > 1
    GROUP BY p.qid, p.kind, p.unit, p.chunk, r."row"
    HAVING count(*) = any_value(p.n_items)
), chunk_support AS (
    SELECT kind, unit, chunk, item, count(*) AS rows FROM est_dis_rows GROUP BY ALL
), counted AS (
    SELECT qid, kind, unit, chunk, count(*) AS rows FROM holding GROUP BY ALL
    UNION ALL
    -- a part of one item: the rows holding the item in its chunk, counted once per chunk
    SELECT p.qid, p.kind, p.unit, p.chunk, s.rows
    FROM part_items AS p
    JOIN chunk_support AS s ON s.kind = p.kind AND s.unit = p.unit AND s.chunk = p.chunk
                           AND s.item = p.item
    WHERE p.n_items = 1
)
SELECT p.*, CASE WHEN p.kind = 'term' THEN NULL ELSE coalesce(c.rows, 0) END AS rows
FROM parts AS p
LEFT JOIN counted AS c
  ON c.qid = p.qid AND c.kind = p.kind AND c.unit = p.unit AND c.chunk IS NOT DISTINCT FROM p.chunk;

-- name: est_dis_cluster_answers
-- Every query's answer per cluster, or per joint cluster for a query held in shared chunks
-- only (`joint` set; counted once for the joint cluster). With n records, the query's parts in
-- P chunks holding h_1..h_P rows each and t term-chunk terms:
-- - estimate: n * prod(h / unit size) * (term support / n)^t (exact inside one chunk; chunks
--   and terms independent);
-- - upper: the fewest holders of any part (a record has at most one row per chunk; a shared
--   chunk gives a cluster at most min(h, n) of its rows), and cap with a term-chunk term;
-- - lower, without terms: sum(h) - (P - 1) n (the parts' holders overlap at least that much;
--   a shared chunk's part counts only the rows the joint's other clusters cannot take:
--   h - (joint size - n)); with terms: 1 for one term alone (it is released because a record
--   holds it), all the records left without a row when it is the cluster's only term, else 0.
CREATE OR REPLACE TEMP TABLE est_dis_cluster_answers AS
WITH per_cluster AS (
    SELECT p.qid, p.cluster,
           count(*) FILTER (WHERE p.kind = 'record') AS p_record,
           count(*) FILTER (WHERE p.kind = 'shared') AS p_shared,
           coalesce(sum(p.n_items) FILTER (WHERE p.kind = 'term'), 0) AS t,
           product(p.rows / p.unit_size) FILTER (WHERE p.kind <> 'term') AS share,
           min(p.rows) FILTER (WHERE p.kind = 'record') AS least_record,
           min(p.rows) FILTER (WHERE p.kind = 'shared') AS least_shared,
           coalesce(sum(CASE WHEN p.kind = 'record' THEN p.rows
                             WHEN p.kind = 'shared'
                                 THEN greatest(0, p.rows - (p.unit_size - c.n)) END), 0)
               AS guaranteed,
           any_value(p.unit) FILTER (WHERE p.kind = 'shared') AS joint,
           any_value(p.unit_size) FILTER (WHERE p.kind = 'shared') AS joint_size,
           sum(p.rows) FILTER (WHERE p.kind = 'shared') AS sum_shared
    FROM est_dis_parts AS p
    JOIN est_dis_clusters AS c ON c.cluster = p.cluster
    GROUP BY p.qid, p.cluster
), facts AS (
    SELECT p.*, c.n, c.cap, c.terms, c.term_support, c.empty_least
    FROM per_cluster AS p
    JOIN est_dis_clusters AS c ON c.cluster = p.cluster
)
SELECT qid, cluster, NULL AS joint,
       n * coalesce(share, 1.0) * power(coalesce(term_support, 0) / n, t) AS estimate,
       CASE
           WHEN t > 0 AND p_record + p_shared = 0 AND t = 1
               THEN CASE WHEN terms = 1 THEN greatest(1, empty_least) ELSE 1 END
           WHEN t > 0 THEN 0
           ELSE greatest(0, guaranteed - (p_record + p_shared - 1) * n)
       END AS lower,
       least(n, coalesce(least_record, n), coalesce(least(least_shared, n), n),
             CASE WHEN t > 0 THEN cap ELSE n END) AS upper
FROM facts
WHERE NOT (p_record = 0 AND t = 0)
UNION ALL
SELECT qid, NULL, joint,
       any_value(joint_size * share),
       any_value(greatest(0, sum_shared - (p_shared - 1) * joint_size)),
       any_value(least_shared)
FROM facts
WHERE p_record = 0 AND t = 0
GROUP BY qid, joint;

-- name: est_dis_answers
-- Every query's estimate and bounds: the sums over the clusters (and joint clusters).
CREATE OR REPLACE TEMP TABLE est_answers AS
SELECT q.qid, coalesce(sum(a.estimate), 0) AS estimate, coalesce(sum(a.lower), 0) AS lower,
       coalesce(sum(a.upper), 0) AS upper
FROM (SELECT DISTINCT qid FROM queries) AS q
LEFT JOIN est_dis_cluster_answers AS a ON a.qid = q.qid
GROUP BY q.qid;

-- name: est_gen_ancestors
-- Every leaf of the hierarchy with every node at or above it and the leaves under that node.
CREATE OR REPLACE TEMP TABLE est_gen_ancestors AS
WITH RECURSIVE nodes AS (
    SELECT child AS node FROM hierarchy UNION SELECT parent FROM hierarchy
), leaves AS (
    SELECT node FROM nodes ANTI JOIN hierarchy AS h ON h.parent = nodes.node
), up(leaf, ancestor) AS (
    SELECT node, node FROM leaves
    UNION ALL
    SELECT u.leaf, h.parent FROM up AS u JOIN hierarchy AS h ON h.child = u.ancestor
), counts AS (
    SELECT ancestor, count(DISTINCT leaf) AS leaves FROM up GROUP BY ancestor
)
SELECT DISTINCT u.leaf, u.ancestor, c.leaves
FROM up AS u
JOIN counts AS c ON c.ancestor = u.ancestor;

-- name: est_gen_answers
-- Every query's estimate and bounds on a generalized release. A released node over L leaves
-- stands for each of them with chance 1/L (the uniform assumption of COAT and PCTA), copies of
-- a node add, at most 1; a transaction holds the query with the product of its items' chances,
-- and the estimate sums that over the transactions. Every released node generalizes an item
-- of its transaction, so a transaction releasing every item of the query as itself holds it
-- (lower); one that releases no node at or above one of its items does not (upper, which
-- counts the transactions covering every item).
CREATE OR REPLACE TEMP TABLE est_answers AS
WITH wanted AS (
    SELECT DISTINCT qid, item FROM queries
), sizes AS (
    SELECT qid, count(*) AS n_items FROM wanted GROUP BY qid
), copies AS (
    SELECT tid, item AS node, count(*) AS copies FROM release GROUP BY tid, item
), chance AS (
    SELECT w.qid, c.tid, w.item, least(1.0, sum(c.copies / a.leaves)) AS p,
           bool_or(c.node = w.item) AS as_itself
    FROM wanted AS w
    JOIN est_gen_ancestors AS a ON a.leaf = w.item
    JOIN copies AS c ON c.node = a.ancestor
    GROUP BY w.qid, c.tid, w.item
), holders AS (
    SELECT c.qid, c.tid, product(c.p) AS p, bool_and(c.as_itself) AS certain
    FROM chance AS c
    JOIN sizes AS s ON s.qid = c.qid
    GROUP BY c.qid, c.tid
    HAVING count(*) = any_value(s.n_items)
)
SELECT s.qid, coalesce(sum(h.p), 0) AS estimate,
       count(h.tid) FILTER (WHERE h.certain) AS lower, count(h.tid) AS upper
FROM sizes AS s
LEFT JOIN holders AS h ON h.qid = s.qid
GROUP BY s.qid;

-- name: est_read_clusters
-- The release's `clusters` file (read as text) with its numbers typed.
CREATE OR REPLACE TEMP TABLE clusters AS
SELECT CAST(cluster AS BIGINT) AS cluster, CAST(size AS BIGINT) AS size FROM est_file_clusters;

-- name: est_read_record_chunks
-- The release's `record_chunks` file, labels kept as text.
CREATE OR REPLACE TEMP TABLE record_chunks AS
SELECT CAST(cluster AS BIGINT) AS cluster, CAST(chunk AS BIGINT) AS chunk,
       CAST("row" AS BIGINT) AS "row", CAST(item AS VARCHAR) AS item
FROM est_file_record_chunks;

-- name: est_read_term_chunks
-- The release's `term_chunks` file, labels kept as text.
CREATE OR REPLACE TEMP TABLE term_chunks AS
SELECT CAST(cluster AS BIGINT) AS cluster, CAST(item AS VARCHAR) AS item FROM est_file_term_chunks;

-- name: est_read_joint_clusters
-- The release's `joint_clusters` file (refinement's joint clusters).
CREATE OR REPLACE TEMP TABLE joint_clusters AS
SELECT CAST(joint AS BIGINT) AS joint, CAST(cluster AS BIGINT) AS cluster
FROM est_file_joint_clusters;

-- name: est_read_shared_chunks
-- The release's `shared_chunks` file, labels kept as text.
CREATE OR REPLACE TEMP TABLE shared_chunks AS
SELECT CAST(joint AS BIGINT) AS joint, CAST(chunk AS BIGINT) AS chunk,
       CAST("row" AS BIGINT) AS "row", CAST(item AS VARCHAR) AS item
FROM est_file_shared_chunks;

-- name: est_no_joint_clusters
-- A release made without refinement has no joint clusters.
CREATE OR REPLACE TEMP TABLE joint_clusters (joint BIGINT, cluster BIGINT);

-- name: est_no_shared_chunks
-- A release made without refinement has no shared chunks.
CREATE OR REPLACE TEMP TABLE shared_chunks (joint BIGINT, chunk BIGINT, "row" BIGINT, item VARCHAR);

-- name: est_read_release
-- A generalized release file, long (tid, item): ids and labels as text.
CREATE OR REPLACE TEMP TABLE release AS
SELECT CAST(tid AS VARCHAR) AS tid, CAST(item AS VARCHAR) AS item FROM est_file_release;

-- name: est_dis_items
-- Every item a disassociated release holds somewhere.
SELECT DISTINCT item FROM record_chunks
UNION SELECT item FROM shared_chunks
UNION SELECT item FROM term_chunks;

-- name: est_answers_read
-- The answers, by query.
SELECT qid, estimate, lower, upper FROM est_answers ORDER BY qid;
