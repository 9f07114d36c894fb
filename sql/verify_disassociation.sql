-- The verifier of disassociated releases: the released tables (`clusters`, `record_chunks`,
-- `term_chunks`, `joint_clusters`, `shared_chunks`, item labels) checked against the dataset's
-- `tx_raw(tid, label)`, the run's `cluster_members(cluster, tid)` and `suppressed_items(tid,
-- item)`, never against the algorithm's working tables. Each check appends its offending
-- rows to `dv_violations(problem, unit, detail)`.

-- name: dv_start
-- No violation found yet.
CREATE OR REPLACE TABLE dv_violations (problem VARCHAR, unit INTEGER, detail VARCHAR);

-- name: dv_labels
-- The data's item labels, numbered, so that the checks compare integers.
CREATE OR REPLACE TEMP TABLE dv_label AS
SELECT label, (row_number() OVER (ORDER BY label))::INTEGER AS id
FROM (SELECT DISTINCT label FROM tx_raw);

-- name: dv_released_records
-- The records as the release must hold them: the original items of every member of a
-- cluster, less the suppressed occurrences.
CREATE OR REPLACE TEMP TABLE dv_records AS
SELECT m.cluster, m.tid, l.id AS item
FROM cluster_members AS m
JOIN tx_raw AS r ON r.tid = m.tid
JOIN dv_label AS l ON l.label = r.label
ANTI JOIN suppressed_items AS x ON x.tid = r.tid AND x.item = r.label;

-- name: dv_released_rows
-- Every released row of every record chunk (of a cluster) and shared chunk (of a joint
-- cluster), with the items' numbers (NULL: a label not in the data).
CREATE OR REPLACE TEMP TABLE dv_rows AS
SELECT 'record' AS kind, r.cluster AS unit, r.chunk, r."row", r.item AS label, l.id AS item
FROM record_chunks AS r
LEFT JOIN dv_label AS l ON l.label = r.item
UNION ALL
SELECT 'shared', s.joint, s.chunk, s."row", s.item, l.id
FROM shared_chunks AS s
LEFT JOIN dv_label AS l ON l.label = s.item;

-- name: dv_members
-- Every transaction of the data in exactly one cluster, and nothing else in the clusters.
INSERT INTO dv_violations
SELECT 'transaction not in exactly one cluster', NULL, CAST(t.tid AS VARCHAR)
FROM tids AS t
LEFT JOIN cluster_members AS m ON m.tid = t.tid
GROUP BY t.tid
HAVING count(m.cluster) <> 1
UNION ALL
SELECT 'cluster member not in the data', m.cluster, CAST(m.tid AS VARCHAR)
FROM cluster_members AS m
ANTI JOIN tids AS t ON t.tid = m.tid;

-- name: dv_sizes
-- Every cluster released with its true size, and at least $k records.
INSERT INTO dv_violations
SELECT CASE WHEN c.cluster IS NULL THEN 'cluster not released'
            WHEN m.cluster IS NULL THEN 'released cluster has no records'
            WHEN c.size <> m.size THEN 'released size is not the cluster''s'
            ELSE 'cluster of fewer than k records' END,
       coalesce(c.cluster, m.cluster), CAST(coalesce(m.size, 0) AS VARCHAR)
FROM clusters AS c
FULL JOIN (SELECT cluster, count(*) AS size FROM cluster_members GROUP BY cluster) AS m
  ON m.cluster = c.cluster
WHERE c.cluster IS NULL OR m.cluster IS NULL OR c.size <> m.size OR m.size < $k;

-- name: dv_suppression
-- Suppressed occurrences are original ones, and no record loses all its items.
INSERT INTO dv_violations
SELECT 'suppressed item not in its record', NULL, x.item
FROM suppressed_items AS x
ANTI JOIN tx_raw AS r ON r.tid = x.tid AND r.label = x.item
UNION ALL
SELECT 'record emptied by suppression', m.cluster, CAST(m.tid AS VARCHAR)
FROM cluster_members AS m
ANTI JOIN dv_records AS r ON r.tid = m.tid;

-- name: dv_domains
-- Where each item of each cluster is released: a record chunk, the term chunk, or a shared
-- chunk of its joint cluster (for the clusters whose records hold it); unknown labels are
-- reported.
CREATE OR REPLACE TEMP TABLE dv_places AS
SELECT DISTINCT unit AS cluster, 'record' AS kind, chunk, item
FROM dv_rows
WHERE kind = 'record'
UNION ALL
SELECT t.cluster, 'term', NULL, l.id
FROM term_chunks AS t
LEFT JOIN dv_label AS l ON l.label = t.item
UNION ALL
SELECT DISTINCT j.cluster, 'shared', s.chunk, s.item
FROM dv_rows AS s
JOIN joint_clusters AS j ON j.joint = s.unit
SEMI JOIN dv_records AS r ON r.cluster = j.cluster AND r.item = s.item
WHERE s.kind = 'shared';

-- name: dv_record_places
-- Every item occurrence of the released records with the place its cluster releases the
-- item in (kind NULL: nowhere), read by the term, cover and loss statements.
CREATE OR REPLACE TEMP TABLE dv_record_places AS
SELECT r.cluster, r.tid, r.item, p.kind, p.chunk
FROM dv_records AS r
LEFT JOIN dv_places AS p ON p.cluster = r.cluster AND p.item = r.item;

-- name: dv_disjoint
-- Items released in two places of one cluster (record chunks, shared chunks and the term
-- chunk are disjoint), and clusters in two joint clusters.
INSERT INTO dv_violations
SELECT 'released label not in the data', unit, label
FROM dv_rows
WHERE item IS NULL
UNION ALL
SELECT 'released label not in the data', t.cluster, t.item
FROM term_chunks AS t
ANTI JOIN dv_label AS l ON l.label = t.item
UNION ALL
SELECT 'item in two chunks of a cluster', cluster, CAST(item AS VARCHAR)
FROM dv_places
WHERE item IS NOT NULL
GROUP BY cluster, item
HAVING count(*) > 1
UNION ALL
SELECT 'cluster in two joint clusters', cluster, NULL
FROM joint_clusters
GROUP BY cluster
HAVING count(*) > 1;

-- name: dv_places_complete
-- Every item a cluster's records hold is released in a place of the cluster, and every item
-- released there is held by one of its records.
INSERT INTO dv_violations
SELECT CASE WHEN p.item IS NULL THEN 'item of the cluster not released'
            ELSE 'released item not in the cluster' END,
       coalesce(p.cluster, r.cluster), CAST(coalesce(p.item, r.item) AS VARCHAR)
FROM (SELECT DISTINCT cluster, item FROM dv_places WHERE item IS NOT NULL) AS p
FULL JOIN (SELECT DISTINCT cluster, item FROM dv_records) AS r
  ON r.cluster = p.cluster AND r.item = p.item
WHERE p.item IS NULL OR r.item IS NULL;

-- name: dv_projections
-- Every record chunk is exactly the projection of its cluster's records on its domain, and
-- every shared chunk of its joint cluster's: the same multiset of non-empty subrecords. A
-- record chunk's projections come from `dv_record_places` (each record occurrence already
-- matched to the record chunks of its cluster releasing its item: the same join, made once
-- for the term, cover and loss statements too); a shared chunk's from the joint cluster's
-- domains (`dv_record_places` does not say which joint cluster a shared place belongs to).
INSERT INTO dv_violations
WITH released AS (
    SELECT kind, unit, chunk, list(item ORDER BY item) AS items
    FROM dv_rows
    GROUP BY kind, unit, chunk, "row"
), domains AS (
    SELECT DISTINCT s.kind, s.unit, j.cluster, s.chunk, s.item
    FROM dv_rows AS s
    JOIN joint_clusters AS j ON j.joint = s.unit
    WHERE s.kind = 'shared'
), original AS (
    SELECT d.kind, d.unit, d.chunk, list(r.item ORDER BY r.item) AS items
    FROM dv_records AS r
    JOIN domains AS d ON d.cluster = r.cluster AND d.item = r.item
    GROUP BY d.kind, d.unit, d.chunk, r.tid
    UNION ALL
    SELECT 'record', cluster, chunk, list(item ORDER BY item)
    FROM dv_record_places
    WHERE kind = 'record'
    GROUP BY cluster, chunk, tid
), a AS (
    SELECT kind, unit, chunk, items, count(*) AS n FROM released GROUP BY ALL
), b AS (
    SELECT kind, unit, chunk, items, count(*) AS n FROM original GROUP BY ALL
)
SELECT 'chunk is not the projection of its records', coalesce(a.unit, b.unit),
       coalesce(a.kind, b.kind) || ' chunk ' || coalesce(a.chunk, b.chunk) || ': '
           || CAST(coalesce(a.items, b.items) AS VARCHAR)
FROM a
FULL JOIN b ON b.kind = a.kind AND b.unit = a.unit AND b.chunk = a.chunk AND b.items = a.items
WHERE a.n IS DISTINCT FROM b.n;

-- name: dv_rows_are_sets
-- No item repeated in a released row.
INSERT INTO dv_violations
SELECT 'item repeated in a row', unit, label
FROM dv_rows
GROUP BY kind, unit, chunk, "row", label
HAVING count(*) > 1;

-- name: dv_term_support
-- Every term-chunk term is held by 1..$k-1 records of its cluster (what the format promises
-- and the cover check assumes).
INSERT INTO dv_violations
SELECT 'term-chunk term held by k or more records', cluster, CAST(item AS VARCHAR)
FROM dv_record_places
WHERE kind = 'term'
GROUP BY cluster, item
HAVING count(*) >= $k;

-- name: dv_problems
-- The offending rows found, counted per problem.
SELECT problem, count(*) AS n FROM dv_violations GROUP BY problem ORDER BY problem;

-- name: dv_violations_shown
-- The first $n offending rows.
SELECT problem, unit, detail FROM dv_violations ORDER BY problem, unit, detail LIMIT $n;

-- name: dv_chunk_rows
-- Every released row of every chunk as (row id, place id): place ids number the (chunk,
-- item) pairs, so that itemsets are counted within one chunk only.
CREATE OR REPLACE TEMP TABLE dv_chunk_rows AS
WITH places AS (
    SELECT kind, unit, chunk, item,
           row_number() OVER (ORDER BY kind, unit, chunk, item)::INTEGER AS node
    FROM (SELECT DISTINCT kind, unit, chunk, item FROM dv_rows)
)
SELECT dense_rank() OVER (ORDER BY r.kind, r.unit, r.chunk, r."row") AS tid, p.node
FROM dv_rows AS r
JOIN places AS p USING (kind, unit, chunk, item);

-- name: dv_chunk_frequent
-- The chunk occurrences of items held by at least $k rows of their chunk.
CREATE OR REPLACE TEMP TABLE dv_chunk_frequent AS
SELECT tid, node
FROM dv_chunk_rows
WHERE node IN (SELECT node FROM dv_chunk_rows GROUP BY node HAVING count(*) >= $k);

-- name: dv_cover_shapes
-- What the adversary sees of every cluster, from the release alone: its size, its released
-- record-chunk rows and record chunks, its term-chunk terms and the coverage they may give
-- (each in at most min(size, $k - 1) records), its joint cluster and that joint's shared rows
-- and shared chunks. cover.unsafe decides from these counts alone (see cover.py).
CREATE OR REPLACE TEMP TABLE dv_cover_shapes AS
WITH row_counts AS (
    SELECT kind, unit, count(DISTINCT (chunk, "row")) AS rows, count(DISTINCT chunk) AS chunks
    FROM dv_rows
    GROUP BY kind, unit
), terms AS (
    SELECT cluster, count(*) AS terms FROM term_chunks GROUP BY cluster
)
SELECT c.cluster, c.size, coalesce(r.rows, 0) AS chunk_rows,
       coalesce(t.terms, 0) * least(c.size, $k - 1) AS term_cover, coalesce(t.terms, 0) AS terms,
       coalesce(r.chunks, 0) AS chunks, j.joint, coalesce(s.rows, 0) AS shared_rows,
       coalesce(s.chunks, 0) AS shared_chunks
FROM clusters AS c
LEFT JOIN row_counts AS r ON r.kind = 'record' AND r.unit = c.cluster
LEFT JOIN terms AS t ON t.cluster = c.cluster
LEFT JOIN joint_clusters AS j ON j.cluster = c.cluster
LEFT JOIN row_counts AS s ON s.kind = 'shared' AND s.unit = j.joint
ORDER BY c.cluster;

-- name: dv_cover_read
-- Every cluster's shape as the release shows it, in cluster order (read by cover.shape_of).
SELECT cluster, size, chunk_rows, term_cover, terms, chunks, joint, shared_rows, shared_chunks
FROM dv_cover_shapes
ORDER BY cluster;

-- name: dv_km_1
-- Items of one chunk held by 1..k-1 of its rows (m = 1), as (size, itemset, support): what
-- builders.km_violations(1, ...) renders, written out so that the check needs no sqlglot.
CREATE OR REPLACE TEMP TABLE dv_km AS
SELECT 1 AS size, [item_1] AS itemset, support
FROM (
    SELECT i1.node AS item_1, count(*) AS support
    FROM dv_chunk_rows AS i1
    GROUP BY i1.node
    HAVING count(*) < $k
) AS s1;

-- name: dv_km_2
-- Itemsets of 1..2 items of one chunk held by 1..k-1 of its rows (m = 2): what
-- builders.km_violations(2, ...) renders; pairs over the frequent items only (Apriori).
CREATE OR REPLACE TEMP TABLE dv_km AS
SELECT 1 AS size, [item_1] AS itemset, support
FROM (
    SELECT i1.node AS item_1, count(*) AS support
    FROM dv_chunk_rows AS i1
    GROUP BY i1.node
    HAVING count(*) < $k
) AS s1
UNION ALL
SELECT 2 AS size, [item_1, item_2] AS itemset, support
FROM (
    SELECT i1.node AS item_1, i2.node AS item_2, count(*) AS support
    FROM dv_chunk_frequent AS i1
    JOIN dv_chunk_frequent AS i2 ON i2.tid = i1.tid AND i2.node > i1.node
    GROUP BY i1.node, i2.node
    HAVING count(*) < $k
) AS s2;

-- name: dv_km_per_size
-- Itemsets of one chunk held by 1..k-1 of its rows, counted per size.
SELECT size, count(*) AS itemsets FROM dv_km GROUP BY size;

-- name: dv_loss
-- Information loss of a disassociated release, over the original item instances: how many
-- there are, how many are released in record chunks, in shared chunks, only in term chunks
-- (their co-occurrence and count are lost), and suppressed; distinct items, and those
-- released in no record or shared chunk at all.
WITH instances AS (
    SELECT item, kind FROM dv_record_places
), items AS (
    SELECT item, bool_or(kind IN ('record', 'shared')) AS linked FROM instances GROUP BY item
)
SELECT (SELECT count(*) FROM tx_raw) AS instances,
       count(*) FILTER (WHERE kind = 'record') AS record_chunk_instances,
       count(*) FILTER (WHERE kind = 'shared') AS shared_chunk_instances,
       count(*) FILTER (WHERE kind = 'term') AS term_chunk_instances,
       (SELECT count(*) FROM suppressed_items) AS suppressed,
       (SELECT count(*) FROM items) AS items,
       (SELECT count(*) FROM items WHERE NOT linked) AS term_only_items,
       (SELECT count(*) FROM clusters) AS clusters,
       (SELECT count(DISTINCT (unit, chunk)) FROM dv_rows WHERE kind = 'record')
           AS record_chunks,
       (SELECT count(DISTINCT (unit, chunk)) FROM dv_rows WHERE kind = 'shared')
           AS shared_chunks
FROM instances;
