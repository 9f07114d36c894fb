-- Scoring the probes of `setanon evaluate` (sql/evaluate.sql draws them) on a disassociated
-- release. The result is the `eval_scores` table the other releases' scoring makes, so the
-- figures, `eval_queries` and `eval_attacks` come from the same statements.
--
-- An analyst's estimate of an itemset's support sums over the clusters holding all its items:
-- the cluster's records times, for each place its items are released in, the share of the
-- place's rows holding them: exact inside one record chunk (or shared chunk, over its joint
-- cluster), independent across places; a term-chunk term at its cluster's least occurrences
-- (sql/estimate.sql, the estimator `setanon estimate` runs on the release files).

-- name: de_items
-- The probes' item ids with their labels: `tx`'s items as the release names them.
CREATE OR REPLACE TEMP TABLE de_label AS
SELECT item, label FROM dis_item;

-- name: de_items_of_hierarchy
-- With a hierarchy in use, the probes are drawn over its leaves: their labels.
CREATE OR REPLACE TEMP TABLE de_label AS
SELECT id AS item, label FROM node WHERE is_leaf;

-- name: de_tx_of_run
-- Without a hierarchy the probes are drawn over the run's own item numbers.
CREATE OR REPLACE TEMP TABLE tx AS
SELECT r.tid, i.item
FROM tx_raw AS r
JOIN dis_item AS i ON i.label = r.label;

-- name: de_rows
-- Every released row of every chunk (record chunks of a cluster, shared chunks of a joint
-- cluster) over the probes' item ids, and every place an item is released in a cluster:
-- its record chunk, a shared chunk of its joint cluster, or the term chunk.
CREATE OR REPLACE TEMP TABLE de_rows AS
SELECT 'record' AS kind, r.cluster AS unit, r.chunk, r."row", l.item
FROM record_chunks AS r
JOIN de_label AS l ON l.label = r.item
UNION ALL
SELECT 'shared', s.joint, s.chunk, s."row", l.item
FROM shared_chunks AS s
JOIN de_label AS l ON l.label = s.item;

-- name: de_places
-- Where each item is released in each cluster, the size of the unit its rows belong to (the
-- cluster, or the joint cluster of a shared chunk) and how many of those rows hold it.
CREATE OR REPLACE TEMP TABLE de_places AS
WITH joint_size AS (
    SELECT j.joint, sum(c.size) AS n
    FROM joint_clusters AS j
    JOIN clusters AS c ON c.cluster = j.cluster
    GROUP BY j.joint
), support AS (
    SELECT kind, unit, chunk, item, count(*) AS rows
    FROM de_rows
    GROUP BY kind, unit, chunk, item
)
SELECT r.unit AS cluster, r.item, 'record' AS kind, r.unit, r.chunk, c.size AS unit_size, r.rows
FROM support AS r
JOIN clusters AS c ON c.cluster = r.unit
WHERE r.kind = 'record'
UNION ALL
SELECT j.cluster, r.item, 'shared', r.unit, r.chunk, z.n, r.rows
FROM support AS r
JOIN joint_clusters AS j ON j.joint = r.unit
JOIN joint_size AS z ON z.joint = r.unit
WHERE r.kind = 'shared'
UNION ALL
SELECT t.cluster, l.item, 'term', t.cluster, NULL, c.size, NULL
FROM term_chunks AS t
JOIN de_label AS l ON l.label = t.item
JOIN clusters AS c ON c.cluster = t.cluster;

-- name: de_cover
-- Every cluster's figures for the attacks' bound (cover.py): size, record-chunk rows, the
-- coverage its term chunk may give, the records its joint cluster's other clusters need
-- shared rows for, and the joint's shared rows.
CREATE OR REPLACE TEMP TABLE de_cover AS
WITH rows AS (
    SELECT cluster, count(DISTINCT (chunk, "row")) AS rows FROM record_chunks GROUP BY cluster
), terms AS (
    SELECT cluster, count(*) AS terms FROM term_chunks GROUP BY cluster
), base AS (
    SELECT c.cluster, c.size AS records, coalesce(r.rows, 0) AS chunk_rows,
           coalesce(t.terms, 0) * least(c.size, $k - 1) AS term_cover, j.joint
    FROM clusters AS c
    LEFT JOIN rows AS r ON r.cluster = c.cluster
    LEFT JOIN terms AS t ON t.cluster = c.cluster
    LEFT JOIN joint_clusters AS j ON j.cluster = c.cluster
), deficits AS (
    SELECT joint, sum(greatest(0, records - chunk_rows - term_cover)) AS deficit
    FROM base
    WHERE joint IS NOT NULL
    GROUP BY joint
), shared_rows AS (
    SELECT joint, count(DISTINCT (chunk, "row")) AS rows FROM shared_chunks GROUP BY joint
)
SELECT b.*, b.chunk_rows + b.term_cover - b.records AS slack,
       coalesce(d.deficit, 0) - greatest(0, b.records - b.chunk_rows - b.term_cover) AS others,
       coalesce(d.deficit, 0) AS joint_deficit, coalesce(s.rows, 0) AS shared_rows
FROM base AS b
LEFT JOIN deficits AS d ON d.joint = b.joint
LEFT JOIN shared_rows AS s ON s.joint = b.joint;

-- name: de_probe_places
-- Every attack with every cluster that releases all its items, and the place of each item
-- (only attacks need candidates; queries need only their estimates, de_est_queries). The
-- clusters releasing all of an attack's items are among the places of its item released in
-- the fewest places, the others looked up by (item, cluster) (as est_dis_parts finds them).
CREATE OR REPLACE TEMP TABLE de_probe_places AS
WITH items AS (
    SELECT workload, size, qid, unnest(itemset) AS item FROM eval_probes WHERE workload = 'attack'
), place_counts AS (
    SELECT item, count(*) AS places FROM de_places GROUP BY item
), anchored AS (
    SELECT i.workload, i.size, i.qid, arg_min(i.item, (c.places, i.item)) AS anchor
    FROM items AS i
    JOIN place_counts AS c ON c.item = i.item
    GROUP BY i.workload, i.size, i.qid
    HAVING count(*) = any_value(i.size)
), candidates AS (
    SELECT a.workload, a.size, a.qid, a.anchor, p.cluster
    FROM anchored AS a
    JOIN de_places AS p ON p.item = a.anchor
), complete AS (
    SELECT workload, size, qid, cluster FROM candidates WHERE size = 1
    UNION ALL
    SELECT c.workload, c.size, c.qid, c.cluster
    FROM candidates AS c
    JOIN items AS i ON i.workload = c.workload AND i.size = c.size AND i.qid = c.qid
                   AND i.item <> c.anchor
    JOIN de_places AS p ON p.item = i.item AND p.cluster = c.cluster
    WHERE c.size > 1
    GROUP BY c.workload, c.size, c.qid, c.cluster
    HAVING count(*) = any_value(c.size) - 1
)
SELECT i.workload, i.size, i.qid, p.*
FROM complete AS c
JOIN items AS i ON i.workload = c.workload AND i.size = c.size AND i.qid = c.qid
JOIN de_places AS p ON p.item = i.item AND p.cluster = c.cluster;

-- name: de_part_rows
-- For every probe, cluster and chunk its items fall in: how many of the chunk's rows hold
-- all of the probe's items there (an item alone: its support in the chunk; two: a join of
-- each chunk row with itself, kept to the pairs some part asks for; three or more: counted
-- over the chunk's rows).
CREATE OR REPLACE TEMP TABLE de_part_rows AS
WITH parts AS (
    SELECT workload, size, qid, cluster, kind, unit, chunk, any_value(unit_size) AS unit_size,
           list(item) AS items, count(*) AS n_items, min(rows) AS least_rows
    FROM de_probe_places
    WHERE kind <> 'term'
    GROUP BY workload, size, qid, cluster, kind, unit, chunk
), pairs AS (
    SELECT DISTINCT kind, unit, chunk, list_min(items) AS lo, list_max(items) AS hi
    FROM parts
    WHERE n_items = 2
), pair_rows AS (
    SELECT a.kind, a.unit, a.chunk, a.item AS lo, b.item AS hi, count(*) AS rows
    FROM de_rows AS a
    JOIN de_rows AS b ON b.kind = a.kind AND b.unit = a.unit AND b.chunk = a.chunk
                     AND b."row" = a."row" AND b.item > a.item
    SEMI JOIN pairs AS p ON p.kind = a.kind AND p.unit = a.unit AND p.chunk = a.chunk
                        AND p.lo = a.item AND p.hi = b.item
    GROUP BY a.kind, a.unit, a.chunk, a.item, b.item
), wide AS (
    SELECT * FROM parts WHERE n_items > 2
), holding AS (
    SELECT p.workload, p.size, p.qid, p.cluster, p.kind, p.unit, p.chunk, r."row"
    FROM (SELECT *, unnest(items) AS item FROM wide) AS p
    JOIN de_rows AS r ON r.kind = p.kind AND r.unit = p.unit AND r.chunk = p.chunk
                     AND r.item = p.item
    GROUP BY ALL
    HAVING count(*) = any_value(p.n_items)
), counted AS (
    SELECT workload, size, qid, cluster, kind, unit, chunk, count(*) AS rows
    FROM holding
    GROUP BY ALL
)
SELECT p.workload, p.size, p.qid, p.cluster, p.kind, p.unit, p.chunk, p.unit_size,
       CASE WHEN p.n_items = 1 THEN p.least_rows
            WHEN p.n_items = 2 THEN coalesce(r.rows, 0)
            ELSE coalesce(c.rows, 0) END AS rows
FROM parts AS p
LEFT JOIN counted AS c USING (workload, size, qid, cluster, kind, unit, chunk)
LEFT JOIN pair_rows AS r
  ON p.n_items = 2 AND r.kind = p.kind AND r.unit = p.unit AND r.chunk = p.chunk
 AND r.lo = list_min(p.items) AND r.hi = list_max(p.items);

-- name: de_scores
-- Every probe's candidates per cluster (its estimate is sql/estimate.sql's): the records
-- of the cluster that some reconstruction lets hold the probe's items (cover.py's counts:
-- the rows of each part, and the room the other records leave once each of the probe's t
-- term-chunk terms sits on a record with a row; a probe in the term chunk alone: every
-- record of the cluster when a record with a row can take it, else only the records left
-- without a row), summed over clusters; a probe held only in shared chunks is counted once
-- per joint cluster.
CREATE OR REPLACE TEMP TABLE de_cluster_scores AS
WITH terms AS (
    SELECT workload, size, qid, cluster, count(*) AS n_terms
    FROM de_probe_places
    WHERE kind = 'term'
    GROUP BY workload, size, qid, cluster
), parts AS (
    SELECT workload, size, qid, cluster,
           count(*) FILTER (WHERE kind = 'record') AS p,
           count(*) FILTER (WHERE kind = 'shared') AS q,
           product(rows / unit_size) AS share,
           min(rows) AS least_rows,
           any_value(unit) FILTER (WHERE kind = 'shared') AS joint
    FROM de_part_rows
    GROUP BY workload, size, qid, cluster
), clusters_of AS (
    SELECT DISTINCT workload, size, qid, cluster FROM de_probe_places
), scored AS (
    SELECT o.workload, o.size, o.qid, o.cluster, v.records, v.chunk_rows, v.term_cover,
           v.shared_rows, v.others, v.joint_deficit, a.p, a.q, a.joint, a.share, a.least_rows,
           coalesce(t.n_terms, 0) AS n_terms,
           v.shared_rows - v.others + v.slack - coalesce(t.n_terms, 0) AS room
    FROM clusters_of AS o
    JOIN de_cover AS v ON v.cluster = o.cluster
    LEFT JOIN parts AS a
      ON a.workload = o.workload AND a.size = o.size AND a.qid = o.qid AND a.cluster = o.cluster
    LEFT JOIN terms AS t
      ON t.workload = o.workload AND t.size = o.size AND t.qid = o.qid AND t.cluster = o.cluster
)
SELECT workload, size, qid, cluster, records AS n, coalesce(p, 0) AS p, coalesce(q, 0) AS q,
       joint, n_terms,
       CASE
           WHEN p IS NULL THEN CASE WHEN room >= 0 THEN records
                                    WHEN room = -1 THEN least(records, term_cover - n_terms + 1)
                                    ELSE 0 END
           WHEN p = 0 AND n_terms = 0 AND q = 1 THEN least_rows
           WHEN p = 0 AND n_terms = 0
               THEN least(least_rows, (shared_rows - joint_deficit) // (q - 1))
           ELSE least(
               least_rows, records,
               CASE WHEN p - 1 + q > 0 THEN room // (p - 1 + q)
                    WHEN room < 0 THEN 0 END,
               CASE WHEN q > 0 THEN (shared_rows - others) // q END
           )
       END AS candidates
FROM scored;

-- name: de_est_queries
-- The query probes as the queries of sql/estimate.sql (`queries(qid, item)`, labels as the
-- release tables hold them), numbered in (workload, size, qid) order: `evaluate` estimates
-- with the estimator `setanon estimate` runs on the release files (attacks need none).
CREATE OR REPLACE TEMP TABLE queries AS
WITH numbered AS (
    SELECT row_number() OVER (ORDER BY workload, size, qid) - 1 AS est_qid, workload, size,
           qid AS probe, itemset
    FROM eval_probes
    WHERE workload <> 'attack'
)
SELECT n.est_qid AS qid, n.workload, n.size, n.probe, l.label AS item
FROM (SELECT *, unnest(itemset) AS item_id FROM numbered) AS n
JOIN de_label AS l ON l.item = n.item_id;

-- name: de_eval_scores
-- Every probe with its actual support (where one is needed), estimate and candidates, as
-- `eval_scores` of sql/evaluate.sql holds them.
CREATE OR REPLACE TEMP TABLE eval_scores AS
WITH estimates AS (
    SELECT DISTINCT q.workload, q.size, q.probe AS qid, a.estimate
    FROM queries AS q
    JOIN est_answers AS a ON a.qid = q.qid
), per_cluster AS (
    SELECT workload, size, qid,
           coalesce(sum(greatest(candidates, 0)) FILTER (WHERE p > 0 OR q = 0 OR n_terms > 0), 0)
               AS candidates
    FROM de_cluster_scores
    GROUP BY workload, size, qid
), per_joint AS (
    SELECT workload, size, qid, sum(candidates) AS candidates
    FROM (
        SELECT workload, size, qid, joint, max(greatest(candidates, 0)) AS candidates
        FROM de_cluster_scores
        WHERE p = 0 AND q > 0 AND n_terms = 0
        GROUP BY workload, size, qid, joint
    )
    GROUP BY workload, size, qid
)
SELECT q.workload, q.size, q.qid,
       coalesce(q.actual, a.actual, 0) AS actual,
       coalesce(e.estimate, 0) AS estimate,
       coalesce(c.candidates, 0) + coalesce(j.candidates, 0) AS candidates
FROM eval_probes AS q
LEFT JOIN eval_actual_supports AS a USING (workload, size, qid)
LEFT JOIN estimates AS e USING (workload, size, qid)
LEFT JOIN per_cluster AS c USING (workload, size, qid)
LEFT JOIN per_joint AS j USING (workload, size, qid);
