-- Disassociation (Terrovitis, Liagouris, Mamoulis & Skiadopoulos, PVLDB 5(10), 2012): the
-- records are split horizontally into clusters (HORPART), each cluster vertically into record
-- chunks that are k^m-anonymous on their own and a term chunk (VERPART), clusters may share
-- chunks of their rare terms (REFINE), and no cluster may let an adversary infer that fewer
-- than k of its records hold m known terms (the cover check of Awad, Al Bouna, Couchot &
-- Philippe, "Safe Disassociation of Set-Valued Datasets", 2019). SQL counts; the driver in
-- setanon_sql/algorithms/disassociation/ decides. Every statement serves every cluster (or
-- every partition of a HORPART level) at once.
--
-- Items are numbered by the run itself (`dis_item`), so no hierarchy is needed; the release
-- tables carry the items' own labels.

-- name: dis_items
-- Every distinct item of the data with its support, numbered from 0 by descending support
-- (ties by label): the order in which HORPART and VERPART break ties.
CREATE OR REPLACE TABLE dis_item AS
SELECT (row_number() OVER (ORDER BY support DESC, label) - 1)::INTEGER AS item, label, support
FROM (SELECT label, count(*) AS support FROM tx_raw GROUP BY label);

-- name: dis_transactions
-- The transactions over the run's item numbers.
CREATE OR REPLACE TABLE dis_tx AS
SELECT r.tid, i.item
FROM tx_raw AS r
JOIN dis_item AS i ON i.label = r.label;

-- name: horpart_start
-- Partition 0 holds every transaction; it is final at once when it is smaller than $max.
CREATE OR REPLACE TABLE horpart_part AS
SELECT 0 AS part, []::INTEGER[] AS path, count(*) AS size, count(*) < $max AS final, 0 AS level
FROM tids;

-- name: horpart_start_active
-- The transactions of partitions still to split (all of them, unless partition 0 is final).
CREATE OR REPLACE TABLE horpart_active AS
SELECT t.tid, 0 AS part
FROM tids AS t
WHERE (SELECT NOT final FROM horpart_part WHERE part = 0);

-- name: horpart_start_done
-- The transactions of final partitions, each with its partition.
CREATE OR REPLACE TABLE horpart_done AS
SELECT t.tid, 0 AS part
FROM tids AS t
WHERE (SELECT final FROM horpart_part WHERE part = 0);

-- name: horpart_first
-- Every record of the level with the rank of the first split term it holds (NULL: none).
-- A partition's split terms are held by at least $k of its records and missing from at least
-- $k, ranked by their support in it (most frequent first, ties by the global order); a term
-- an earlier split used is held by all or none of a partition's records, so it is never a
-- split term again. The records holding the most frequent term go one way, of the others
-- those holding the next term another way, and so on, as HORPART's chain of splits on the
-- most frequent term not yet used sends them, with the supports counted once per level.
CREATE OR REPLACE TEMP TABLE horpart_first AS
WITH occurrence AS (
    SELECT a.part, a.tid, t.item
    FROM horpart_active AS a
    JOIN dis_tx AS t ON t.tid = a.tid
), sizes AS (
    SELECT part, count(*) AS size FROM horpart_active GROUP BY part
), support AS (
    SELECT part, item, count(*) AS support FROM occurrence GROUP BY part, item
), terms AS (
    SELECT s.part, s.item,
           row_number() OVER (PARTITION BY s.part ORDER BY s.support DESC, s.item)::INTEGER
               AS rank
    FROM support AS s
    JOIN sizes AS z ON z.part = s.part
    WHERE s.support >= $k AND s.support <= z.size - $k
), first AS (
    SELECT o.tid, min(h.rank) AS rank
    FROM occurrence AS o
    JOIN terms AS h ON h.part = o.part AND h.item = o.item
    GROUP BY o.tid
)
SELECT a.tid, a.part, f.rank
FROM horpart_active AS a
LEFT JOIN first AS f ON f.tid = a.tid;

-- name: horpart_groups
-- The records of every partition of the level grouped by the first split term they hold
-- (rank NULL: none), with the groups' sizes: what the driver splits by.
CREATE OR REPLACE TEMP TABLE horpart_groups AS
SELECT part, rank, count(*) AS size
FROM horpart_first
GROUP BY part, rank;

-- name: horpart_groups_read
-- The level's groups as the driver reads them: by partition, then by rank (the rest last).
SELECT part, rank, size FROM horpart_groups ORDER BY part, rank NULLS LAST;

-- name: horpart_children_from_lists
-- The driver's decision, from one list per column: the groups split off as children of their
-- own (part, rank), and the partitions to cut (rank NULL); every other record of a partition
-- goes to its rest.
CREATE OR REPLACE TEMP TABLE horpart_children AS
SELECT CAST(part AS INTEGER) AS part, CAST(rank AS INTEGER) AS rank
FROM (SELECT unnest($part::INTEGER[]) AS part, unnest($rank::INTEGER[]) AS rank);

-- name: horpart_cut
-- Partitions no split term can split, cut into ceil(size / $max) pieces (at most size / $k,
-- so each keeps $k records) of records in the order of their item lists, so that records
-- holding the same frequent items stay together.
CREATE OR REPLACE TEMP TABLE horpart_cut AS
WITH cut AS (
    SELECT part FROM horpart_children WHERE rank IS NULL
), records AS (
    SELECT a.tid, a.part, list(t.item ORDER BY t.item) AS items
    FROM horpart_active AS a
    SEMI JOIN cut AS c ON c.part = a.part
    JOIN dis_tx AS t ON t.tid = a.tid
    GROUP BY a.tid, a.part
), ordered AS (
    SELECT tid, part,
           row_number() OVER (PARTITION BY part ORDER BY items, tid) - 1 AS pos,
           count(*) OVER (PARTITION BY part) AS size
    FROM records
)
SELECT tid, part,
       ((pos * least(CAST(ceil(size / $max) AS BIGINT), size // $k)) // size)::INTEGER AS piece
FROM ordered;

-- name: horpart_no_cut
-- No partition of the level is cut.
CREATE OR REPLACE TEMP TABLE horpart_cut (tid BIGINT, part INTEGER, piece INTEGER);

-- name: horpart_next
-- Every record of the level with its new partition: ids from $next on, numbered by parent
-- and child (the rest after the children, cut pieces in their order), the path of child
-- ranks from partition 0, its size and whether it is final (below $max records, or a piece).
CREATE OR REPLACE TEMP TABLE horpart_next AS
WITH placed AS (
    SELECT f.tid, f.part, coalesce(c.rank, 2147483647) AS key, FALSE AS cut
    FROM horpart_first AS f
    LEFT JOIN horpart_children AS c ON c.part = f.part AND c.rank = f.rank
    ANTI JOIN horpart_cut AS x ON x.tid = f.tid
    UNION ALL
    SELECT tid, part, piece AS key, TRUE AS cut FROM horpart_cut
), children AS (
    SELECT part, key, any_value(cut) AS cut, count(*) AS size,
           ($next + row_number() OVER (ORDER BY part, key) - 1)::INTEGER AS new_part
    FROM placed
    GROUP BY part, key
)
SELECT p.tid, c.new_part AS part, list_append(h.path, c.key::INTEGER) AS path, c.size,
       c.cut OR c.size < $max AS final
FROM placed AS p
JOIN children AS c ON c.part = p.part AND c.key = p.key
JOIN horpart_part AS h ON h.part = p.part;

-- name: horpart_record_parts
-- Add the level's new partitions to the partition log.
INSERT INTO horpart_part
SELECT DISTINCT part, path, size, final, $level FROM horpart_next;

-- name: horpart_record_done
-- The records of the level's final partitions leave the frontier.
INSERT INTO horpart_done
SELECT tid, part FROM horpart_next WHERE final;

-- name: horpart_advance
-- The records still to split: those of the level's partitions of $max records or more.
CREATE OR REPLACE TABLE horpart_active AS
SELECT tid, part FROM horpart_next WHERE NOT final;

-- name: horpart_clusters
-- The clusters: the final partitions numbered 1.. in the order of their paths, so that
-- clusters split from the same partition are neighbours (REFINE joins neighbours).
CREATE OR REPLACE TABLE cluster_members AS
SELECT dense_rank() OVER (ORDER BY p.path, p.part)::INTEGER AS cluster, d.tid
FROM horpart_done AS d
JOIN horpart_part AS p ON p.part = d.part
ORDER BY cluster, tid;

-- name: dis_cluster_count
-- How many clusters there are (numbered 1..clusters).
SELECT max(cluster) AS clusters FROM cluster_members;

-- name: verpart_units_of_clusters
-- VERPART's units are the clusters: every record and every item of it may be chunked.
CREATE OR REPLACE TEMP TABLE verpart_occurrence AS
SELECT m.cluster AS unit, t.tid, t.item
FROM cluster_members AS m
JOIN dis_tx AS t ON t.tid = m.tid
ANTI JOIN dis_suppressed AS x ON x.tid = t.tid AND x.item = t.item;

-- name: verpart_units_of_joints
-- REFINE's units are the joint clusters: the occurrences of the terms that every member
-- cluster holding them has in its term chunk, each a candidate for a shared chunk.
CREATE OR REPLACE TEMP TABLE verpart_occurrence AS
WITH occurrence AS (
    SELECT j.joint AS unit, m.cluster, t.tid, t.item
    FROM dis_joint AS j
    JOIN cluster_members AS m ON m.cluster = j.cluster
    JOIN dis_tx AS t ON t.tid = m.tid
    ANTI JOIN dis_suppressed AS x ON x.tid = t.tid AND x.item = t.item
), chunked AS (
    SELECT DISTINCT o.unit, o.item
    FROM occurrence AS o
    JOIN dis_chunk AS c ON c.cluster = o.cluster AND c.item = o.item
)
SELECT o.unit, o.tid, o.item
FROM occurrence AS o
ANTI JOIN chunked AS c ON c.unit = o.unit AND c.item = o.item;

-- name: verpart_frequent
-- The candidate terms of every unit: those held by at least $k of its records, with their
-- support (VERPART places them by descending support).
CREATE OR REPLACE TEMP TABLE verpart_frequent AS
SELECT unit, item, count(*) AS support
FROM verpart_occurrence
GROUP BY unit, item
HAVING count(*) >= $k;

-- name: verpart_candidates
-- Every unit's candidate terms as one list, by descending support (ties by item number).
SELECT unit, list(item ORDER BY support DESC, item) AS items
FROM verpart_frequent
GROUP BY unit;

-- name: verpart_frequent_occurrence
-- The occurrences of every unit's candidate terms: what its itemsets are counted over.
CREATE OR REPLACE TEMP TABLE verpart_candidate_occurrence AS
SELECT o.unit, o.tid, o.item
FROM verpart_occurrence AS o
SEMI JOIN verpart_frequent AS f ON f.unit = o.unit AND f.item = o.item;

-- name: verpart_frequent_sets_1
-- The candidate terms as itemsets of one item: every one has support $k or more.
CREATE OR REPLACE TEMP TABLE verpart_sets_1 AS
SELECT unit, [item] AS itemset, support FROM verpart_frequent;

-- name: verpart_sets_2
-- Every pair of candidate terms held by some record of a unit, with its support: VERPART's
-- itemsets for m = 2, written out so that the default run needs no sqlglot (verpart.py builds
-- the same statement for every size, and for sizes above 2).
CREATE OR REPLACE TEMP TABLE verpart_sets_2 AS
SELECT o1.unit, [o1.item, o2.item] AS itemset, count(*) AS support
FROM verpart_candidate_occurrence AS o1
JOIN verpart_candidate_occurrence AS o2
  ON o2.unit = o1.unit AND o2.tid = o1.tid AND o2.item > o1.item
GROUP BY o1.unit, o1.item, o2.item;

-- name: verpart_bad_2
-- The pairs of `verpart_sets_2` held by fewer than $k records: VERPART's bad itemsets for m = 2.
SELECT unit, itemset FROM verpart_sets_2 WHERE support < $k;

-- name: dis_chunks_from_lists
-- The record chunks' domains VERPART chose, from one list per column: cluster, chunk, item.
CREATE OR REPLACE TABLE dis_chunk AS
SELECT CAST(cluster AS INTEGER) AS cluster, CAST(chunk AS INTEGER) AS chunk,
       CAST(item AS INTEGER) AS item
FROM (
    SELECT unnest($cluster::INTEGER[]) AS cluster, unnest($chunk::INTEGER[]) AS chunk,
           unnest($item::INTEGER[]) AS item
);

-- name: dis_shared_from_lists
-- The shared chunks' domains REFINE chose, from one list per column: joint, chunk, item.
CREATE OR REPLACE TABLE dis_shared AS
SELECT CAST(joint AS INTEGER) AS joint, CAST(chunk AS INTEGER) AS chunk,
       CAST(item AS INTEGER) AS item
FROM (
    SELECT unnest($joint::INTEGER[]) AS joint, unnest($chunk::INTEGER[]) AS chunk,
           unnest($item::INTEGER[]) AS item
);

-- name: dis_joints_from_lists
-- The joint clusters REFINE formed, from one list per column: joint, cluster.
CREATE OR REPLACE TABLE dis_joint AS
SELECT CAST(joint AS INTEGER) AS joint, CAST(cluster AS INTEGER) AS cluster
FROM (SELECT unnest($joint::INTEGER[]) AS joint, unnest($cluster::INTEGER[]) AS cluster);

-- name: dis_no_joints
-- No joint clusters (refinement off): empty `dis_joint` and `dis_shared`.
CREATE OR REPLACE TABLE dis_joint (joint INTEGER, cluster INTEGER);

-- name: dis_no_shared
-- No shared chunks.
CREATE OR REPLACE TABLE dis_shared (joint INTEGER, chunk INTEGER, item INTEGER);

-- name: dis_no_suppression
-- No item occurrence suppressed yet.
CREATE OR REPLACE TABLE dis_suppressed (tid BIGINT, item INTEGER);

-- name: dis_terms
-- Every cluster's term chunk: its items (occurrences not suppressed) in no record chunk of
-- the cluster and no shared chunk of its joint cluster.
CREATE OR REPLACE TABLE dis_term AS
SELECT DISTINCT m.cluster, t.item
FROM cluster_members AS m
JOIN dis_tx AS t ON t.tid = m.tid
ANTI JOIN dis_suppressed AS x ON x.tid = t.tid AND x.item = t.item
ANTI JOIN dis_chunk AS c ON c.cluster = m.cluster AND c.item = t.item
ANTI JOIN (
    SELECT j.cluster, s.item FROM dis_joint AS j JOIN dis_shared AS s ON s.joint = j.joint
) AS s ON s.cluster = m.cluster AND s.item = t.item;

-- name: cover_figures
-- The cover check's figures of every cluster's own records (see cover.py): its records, its
-- record-chunk rows (records x chunks they touch), its record chunks and its shared rows
-- (records x shared chunks of its joint cluster they touch). `cover_figures_read` adds the
-- term chunk and the joint cluster, which both this and `cover_figures_refined` leave to it.
CREATE OR REPLACE TABLE cover_figures AS
WITH places AS (
    SELECT cluster, item, chunk, NULL::INTEGER AS shared FROM dis_chunk
    UNION ALL
    SELECT j.cluster, s.item, NULL, s.chunk
    FROM dis_joint AS j
    JOIN dis_shared AS s ON s.joint = j.joint
), touched AS (
    -- every (record, chunk) row once: a DISTINCT, not a count(DISTINCT) per record
    SELECT DISTINCT m.cluster, m.tid, p.chunk, p.shared
    FROM cluster_members AS m
    JOIN dis_tx AS t ON t.tid = m.tid
    JOIN places AS p ON p.cluster = m.cluster AND p.item = t.item
    ANTI JOIN dis_suppressed AS x ON x.tid = t.tid AND x.item = t.item
), sizes AS (
    SELECT cluster, count(*) AS size FROM cluster_members GROUP BY cluster
), touched_rows AS (
    SELECT cluster, count(chunk) AS chunk_rows, count(shared) AS shared_rows
    FROM touched
    GROUP BY cluster
), chunks AS (
    SELECT cluster, count(DISTINCT chunk) AS chunks FROM dis_chunk GROUP BY cluster
)
-- n as released (`clusters`): a record never loses its last term to suppression
SELECT z.cluster, z.size, coalesce(r.chunk_rows, 0) AS chunk_rows,
       coalesce(c.chunks, 0) AS chunks, coalesce(r.shared_rows, 0) AS shared_rows
FROM sizes AS z
LEFT JOIN touched_rows AS r ON r.cluster = z.cluster
LEFT JOIN chunks AS c ON c.cluster = z.cluster
ORDER BY z.cluster;

-- name: cover_figures_refined
-- `cover_figures` again after REFINE, which changes only the joint clusters, their shared
-- chunks and the term chunks: each cluster's records, record-chunk rows and record chunks
-- are kept from the figures made on the same records and record chunks (the last cover
-- check before REFINE), and only the shared rows are counted again, from the records of
-- clusters in a joint cluster (not every record joined to every place once more).
CREATE OR REPLACE TABLE cover_figures AS
WITH places AS (
    SELECT j.cluster, s.item, s.chunk AS shared
    FROM dis_joint AS j
    JOIN dis_shared AS s ON s.joint = j.joint
), touched AS (
    SELECT DISTINCT m.cluster, m.tid, p.shared
    FROM dis_joint AS j
    JOIN cluster_members AS m ON m.cluster = j.cluster
    JOIN dis_tx AS t ON t.tid = m.tid
    JOIN places AS p ON p.cluster = m.cluster AND p.item = t.item
    ANTI JOIN dis_suppressed AS x ON x.tid = t.tid AND x.item = t.item
), touched_rows AS (
    SELECT cluster, count(*) AS shared_rows FROM touched GROUP BY cluster
)
SELECT f.cluster, f.size, f.chunk_rows, f.chunks, coalesce(r.shared_rows, 0) AS shared_rows
FROM cover_figures AS f
LEFT JOIN touched_rows AS r ON r.cluster = f.cluster
ORDER BY f.cluster;

-- name: cover_figures_read
-- Every cluster's shape, in cluster order, as the driver reads it: its own figures
-- (`cover_figures`), its term chunk's terms and the coverage they may give (each in at most
-- min(size, $k - 1) records), and its joint cluster with that joint's shared rows and shared
-- chunks.
WITH terms AS (
    SELECT cluster, count(*) AS terms FROM dis_term GROUP BY cluster
), shared_chunks AS (
    SELECT joint, count(DISTINCT chunk) AS chunks FROM dis_shared GROUP BY joint
), joints AS (
    SELECT j.joint, j.cluster, sum(f.shared_rows) OVER (PARTITION BY j.joint) AS shared_rows
    FROM dis_joint AS j
    JOIN cover_figures AS f ON f.cluster = j.cluster
)
SELECT f.cluster, f.size, f.chunk_rows, coalesce(t.terms, 0) * least(f.size, $k - 1) AS term_cover,
       coalesce(t.terms, 0) AS terms, f.chunks, j.joint, coalesce(j.shared_rows, 0) AS shared_rows,
       coalesce(s.chunks, 0) AS shared_chunks
FROM cover_figures AS f
LEFT JOIN terms AS t ON t.cluster = f.cluster
LEFT JOIN joints AS j ON j.cluster = f.cluster
LEFT JOIN shared_chunks AS s ON s.joint = j.joint
ORDER BY f.cluster;

-- name: dis_chunk_figures
-- The clusters, record chunks and terms in record chunks as they stand.
SELECT (SELECT max(cluster) FROM cluster_members) AS clusters,
       count(DISTINCT (cluster, chunk)) AS chunks, count(*) AS chunk_terms
FROM dis_chunk;

-- name: dis_release_clusters
-- Released: every cluster and its number of records.
CREATE OR REPLACE TABLE clusters AS
SELECT cluster, count(*) AS size
FROM cluster_members
GROUP BY cluster
ORDER BY cluster;

-- name: dis_release_record_chunks
-- Released: every record chunk's rows, the non-empty projections of its cluster's records on
-- its domain, one row per item, with the items' labels. A chunk's rows are numbered in the
-- order of sha256 of a secret key of 32 random bytes from the operating system ($key), the
-- cluster, the chunk and the tid: a random order, new on every run, that no released value
-- links across chunks. The table is stored in (cluster, chunk, row, item) order, so its
-- physical order says nothing of the tids either.
CREATE OR REPLACE TABLE record_chunks AS
WITH occurrence AS (
    SELECT m.cluster, c.chunk, m.tid, t.item
    FROM cluster_members AS m
    JOIN dis_tx AS t ON t.tid = m.tid
    JOIN dis_chunk AS c ON c.cluster = m.cluster AND c.item = t.item
    ANTI JOIN dis_suppressed AS x ON x.tid = t.tid AND x.item = t.item
), numbered AS (
    SELECT cluster, chunk, tid,
           row_number() OVER (
               PARTITION BY cluster, chunk
               ORDER BY sha256(concat_ws('/', $key, cluster, chunk, tid))
           )::INTEGER AS "row"
    FROM (SELECT DISTINCT cluster, chunk, tid FROM occurrence)
)
SELECT o.cluster, o.chunk, n."row", i.label AS item
FROM occurrence AS o
JOIN numbered AS n ON n.cluster = o.cluster AND n.chunk = o.chunk AND n.tid = o.tid
JOIN dis_item AS i ON i.item = o.item
ORDER BY o.cluster, o.chunk, n."row", o.item;

-- name: dis_release_term_chunks
-- Released: every cluster's term chunk, its items' labels without counts.
CREATE OR REPLACE TABLE term_chunks AS
SELECT d.cluster, i.label AS item
FROM dis_term AS d
JOIN dis_item AS i ON i.item = d.item
ORDER BY d.cluster, i.label;

-- name: dis_release_joint_clusters
-- Released (with refinement): which clusters each joint cluster joins.
CREATE OR REPLACE TABLE joint_clusters AS
SELECT joint, cluster FROM dis_joint ORDER BY joint, cluster;

-- name: dis_release_shared_chunks
-- Released (with refinement): every shared chunk's rows, the non-empty projections of its
-- joint cluster's records on its domain, shuffled and stored as record chunks are.
CREATE OR REPLACE TABLE shared_chunks AS
WITH occurrence AS (
    SELECT j.joint, s.chunk, m.tid, t.item
    FROM dis_joint AS j
    JOIN cluster_members AS m ON m.cluster = j.cluster
    JOIN dis_tx AS t ON t.tid = m.tid
    JOIN dis_shared AS s ON s.joint = j.joint AND s.item = t.item
    ANTI JOIN dis_suppressed AS x ON x.tid = t.tid AND x.item = t.item
), numbered AS (
    SELECT joint, chunk, tid,
           row_number() OVER (
               PARTITION BY joint, chunk
               ORDER BY sha256(concat_ws('/', $key, 'shared', joint, chunk, tid))
           )::INTEGER AS "row"
    FROM (SELECT DISTINCT joint, chunk, tid FROM occurrence)
)
SELECT o.joint, o.chunk, n."row", i.label AS item
FROM occurrence AS o
JOIN numbered AS n ON n.joint = o.joint AND n.chunk = o.chunk AND n.tid = o.tid
JOIN dis_item AS i ON i.item = o.item
ORDER BY o.joint, o.chunk, n."row", o.item;

-- name: dis_suppressed_items
-- The occurrences suppressed by the cover repair, with the items' labels: kept in the run's
-- schema for the verifier, never released.
CREATE OR REPLACE TABLE suppressed_items AS
SELECT x.tid, i.label AS item
FROM dis_suppressed AS x
JOIN dis_item AS i ON i.item = x.item
ORDER BY x.tid, i.label;

-- name: cover_merge_from_lists
-- Repair by merging: every cluster's new number, from the driver's lists (old, new); the
-- clusters renumbered 1.. in their order.
CREATE OR REPLACE TABLE cluster_members AS
WITH moved AS (
    SELECT unnest($old::INTEGER[]) AS old, unnest($new::INTEGER[]) AS new
), renamed AS (
    SELECT coalesce(v.new, m.cluster) AS cluster, m.tid
    FROM cluster_members AS m
    LEFT JOIN moved AS v ON v.old = m.cluster
)
SELECT dense_rank() OVER (ORDER BY cluster)::INTEGER AS cluster, tid
FROM renamed
ORDER BY cluster, tid;

-- name: cover_cluster_records
-- The records of the clusters to repair by suppression, with their items (not suppressed)
-- and the record chunk each item is in (NULL: the term chunk).
SELECT m.cluster, m.tid, t.item, c.chunk
FROM cluster_members AS m
JOIN dis_tx AS t ON t.tid = m.tid
LEFT JOIN dis_chunk AS c ON c.cluster = m.cluster AND c.item = t.item
ANTI JOIN dis_suppressed AS x ON x.tid = t.tid AND x.item = t.item
WHERE list_contains($clusters::INTEGER[], m.cluster)
ORDER BY m.cluster, m.tid, t.item;

-- name: cover_suppress_from_lists
-- Repair by partial suppression: add the occurrences the driver chose, from lists (tid, item).
INSERT INTO dis_suppressed
SELECT unnest($tid::BIGINT[]) AS tid, unnest($item::INTEGER[]) AS item;

-- name: dis_shared_of_joints
-- The shared chunks of the joint clusters still kept.
DELETE FROM dis_shared WHERE joint NOT IN (SELECT joint FROM dis_joint);

-- name: reconstruct_slots
-- One random reconstruction of a disassociated release (setanon reconstruct): the record
-- slots of every cluster, 1..size.
CREATE OR REPLACE TEMP TABLE reconstruct_slot AS
SELECT cluster, unnest(range(1, size + 1)) AS slot FROM clusters;

-- name: reconstruct_rows
-- The rows of every record chunk put in distinct slots of its cluster, and of every shared
-- chunk in distinct slots of its joint cluster, in random order (DuckDB's random(), seeded
-- by the operating system): the i-th row of a random order of the rows goes to the i-th
-- slot of an independent random order of the slots.
CREATE OR REPLACE TEMP TABLE reconstructed_rows AS
WITH rows AS (
    SELECT DISTINCT 'record' AS kind, cluster AS unit, chunk, "row" FROM record_chunks
    UNION ALL
    SELECT DISTINCT 'shared', joint, chunk, "row" FROM shared_chunks
), slots AS (
    SELECT 'record' AS kind, cluster AS unit, cluster, slot FROM reconstruct_slot
    UNION ALL
    SELECT 'shared', j.joint, s.cluster, s.slot
    FROM joint_clusters AS j
    JOIN reconstruct_slot AS s ON s.cluster = j.cluster
), ranked_rows AS (
    SELECT kind, unit, chunk, "row",
           row_number() OVER (PARTITION BY kind, unit, chunk ORDER BY rnd) AS r
    FROM (SELECT *, random() AS rnd FROM rows)
), ranked_slots AS (
    SELECT kind, unit, chunk, cluster, slot,
           row_number() OVER (PARTITION BY kind, unit, chunk ORDER BY rnd) AS r
    FROM (
        SELECT c.kind, c.unit, c.chunk, s.cluster, s.slot, random() AS rnd
        FROM (SELECT DISTINCT kind, unit, chunk FROM rows) AS c
        JOIN slots AS s ON s.kind = c.kind AND s.unit = c.unit
    )
), placed AS (
    SELECT r.kind, r.unit, r.chunk, r."row", s.cluster, s.slot
    FROM ranked_rows AS r
    JOIN ranked_slots AS s USING (kind, unit, chunk, r)
)
SELECT p.cluster, p.slot, i.item
FROM placed AS p
JOIN record_chunks AS i ON p.kind = 'record' AND i.cluster = p.unit AND i.chunk = p.chunk
                       AND i."row" = p."row"
UNION ALL
SELECT p.cluster, p.slot, i.item
FROM placed AS p
JOIN shared_chunks AS i ON p.kind = 'shared' AND i.joint = p.unit AND i.chunk = p.chunk
                       AND i."row" = p."row";

-- name: reconstruct_terms
-- Every term-chunk term put in one record of its cluster, first in records left empty (in
-- random order), else in a random one; then every record as a transaction (tids 0.. in
-- cluster and slot order; records left empty are left out).
CREATE OR REPLACE TEMP TABLE reconstructed AS
WITH empty AS (
    SELECT cluster, slot, row_number() OVER (PARTITION BY cluster ORDER BY rnd) AS r
    FROM (
        SELECT s.cluster, s.slot, random() AS rnd
        FROM reconstruct_slot AS s
        ANTI JOIN reconstructed_rows AS x ON x.cluster = s.cluster AND x.slot = s.slot
    )
), terms AS (
    SELECT cluster, item, size, row_number() OVER (PARTITION BY cluster ORDER BY rnd) AS r
    FROM (
        SELECT t.cluster, t.item, c.size, random() AS rnd
        FROM term_chunks AS t
        JOIN clusters AS c ON c.cluster = t.cluster
    )
), placed AS (
    SELECT t.cluster, coalesce(e.slot, 1 + CAST(floor(random() * t.size) AS BIGINT)) AS slot,
           t.item
    FROM terms AS t
    LEFT JOIN empty AS e ON e.cluster = t.cluster AND e.r = t.r
), everything AS (
    SELECT cluster, slot, item FROM reconstructed_rows
    UNION ALL
    SELECT cluster, slot, item FROM placed
)
SELECT dense_rank() OVER (ORDER BY cluster, slot) - 1 AS tid, item
FROM (SELECT DISTINCT cluster, slot, item FROM everything);

-- name: reconstructed_file
-- The reconstruction as written: long (tid, item) transactions.
SELECT tid, item FROM reconstructed ORDER BY tid, item;

-- name: reconstructed_size
-- How many transactions and item occurrences the reconstruction holds.
SELECT count(DISTINCT tid) AS transactions, count(*) AS items FROM reconstructed;

-- name: release_file_clusters
-- The release folder's clusters file.
SELECT cluster, size FROM clusters ORDER BY cluster;

-- name: release_file_record_chunks
-- The release folder's record chunks file.
SELECT cluster, chunk, "row", item FROM record_chunks ORDER BY cluster, chunk, "row", item;

-- name: release_file_term_chunks
-- The release folder's term chunks file.
SELECT cluster, item FROM term_chunks ORDER BY cluster, item;

-- name: release_file_joint_clusters
-- The release folder's joint clusters file (with refinement).
SELECT joint, cluster FROM joint_clusters ORDER BY joint, cluster;

-- name: release_file_shared_chunks
-- The release folder's shared chunks file (with refinement).
SELECT joint, chunk, "row", item FROM shared_chunks ORDER BY joint, chunk, "row", item;
