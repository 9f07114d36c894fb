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
-- parent)`, numbered into `node` (est_gen_node) and `closure` (the `closure` block of
-- sql/dataset.sql), its distinct transactions into `eval_classes` (est_gen_classes), the
-- itemsets into `eval_probes` (est_gen_probes); est_gen_class_nodes .. est_gen_scores are the
-- estimator `setanon evaluate` runs on a stored run's classes and probes, one implementation;
-- a synthetic release reads `release(tid, item)` alone (est_syn_answers): counts, no bounds.
-- Before answering, est_dis_problems checks a folder's tables against its k, and
-- est_gen_foreign_labels a generalized release's labels against its hierarchy.

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
), place_counts AS (
    SELECT item, count(*) AS places FROM est_dis_places GROUP BY item
), anchored AS (
    -- each query's item released in the fewest places: the clusters releasing the whole
    -- query are among its places (a query with an item released nowhere has none)
    SELECT w.qid, arg_min(w.item, (c.places, w.item)) AS anchor, any_value(s.n_items) AS n_items
    FROM wanted AS w
    JOIN place_counts AS c ON c.item = w.item
    JOIN sizes AS s ON s.qid = w.qid
    GROUP BY w.qid
    HAVING count(*) = any_value(s.n_items)
), candidates AS (
    SELECT a.qid, a.anchor, a.n_items, p.cluster
    FROM anchored AS a
    JOIN est_dis_places AS p ON p.item = a.anchor
), complete AS (
    -- the clusters releasing every item of a query: its anchor's places holding the others
    -- (looked up by (item, cluster); never every place of every item of the query)
    SELECT qid, cluster FROM candidates WHERE n_items = 1
    UNION ALL
    SELECT c.qid, c.cluster
    FROM candidates AS c
    JOIN wanted AS w ON w.qid = c.qid AND w.item <> c.anchor
    JOIN est_dis_places AS p ON p.item = w.item AND p.cluster = c.cluster
    WHERE c.n_items > 1
    GROUP BY c.qid, c.cluster
    HAVING count(*) = any_value(c.n_items) - 1
), placed AS MATERIALIZED (
    -- the places of the items of each query in each cluster releasing all of them
    SELECT c.qid, p.*
    FROM complete AS c
    JOIN wanted AS w ON w.qid = c.qid
    JOIN est_dis_places AS p ON p.item = w.item AND p.cluster = c.cluster
), parts AS (
    SELECT p.qid, p.cluster, p.kind, p.unit, p.chunk, any_value(p.unit_size) AS unit_size,
           count(*) AS n_items
    FROM placed AS p
    GROUP BY p.qid, p.cluster, p.kind, p.unit, p.chunk
), part_items AS (
    -- each chunk part's items, once (a shared chunk's item is placed once per cluster of its
    -- joint cluster: matched per placement, its rows were joined that many times over)
    SELECT DISTINCT w.qid, w.kind, w.unit, w.chunk, w.item, p.n_items
    FROM parts AS p
    JOIN placed AS w ON w.qid = p.qid AND w.cluster = p.cluster AND w.kind = p.kind
                    AND w.unit = p.unit AND w.chunk = p.chunk
    WHERE p.kind <> 'term'
), pairs AS (
    -- each chunk part of two items, its items in order
    SELECT qid, kind, unit, chunk, min(item) AS lo, max(item) AS hi
    FROM part_items
    WHERE n_items = 2
    GROUP BY qid, kind, unit, chunk
), pair_rows AS (
    -- the rows holding a pair some part asks for, counted per chunk: a join of each row with
    -- itself (a row holds a few items), never a group per (query, row)
    SELECT a.kind, a.unit, a.chunk, a.item AS lo, b.item AS hi, count(*) AS rows
    FROM est_dis_rows AS a
    JOIN est_dis_rows AS b ON b.kind = a.kind AND b.unit = a.unit AND b.chunk = a.chunk
                          AND b."row" = a."row" AND b.item > a.item
    SEMI JOIN pairs AS p ON p.kind = a.kind AND p.unit = a.unit AND p.chunk = a.chunk
                        AND p.lo = a.item AND p.hi = b.item
    GROUP BY a.kind, a.unit, a.chunk, a.item, b.item
), holding AS (
    -- the rows of each chunk part of 3+ items holding every item the query has in that chunk
    -- (an item is in a row at most once)
    SELECT p.qid, p.kind, p.unit, p.chunk, r."row"
    FROM part_items AS p
    JOIN est_dis_rows AS r ON r.kind = p.kind AND r.unit = p.unit AND r.chunk = p.chunk
                          AND r.item = p.item
    WHERE p.n_items > 2
    GROUP BY p.qid, p.kind, p.unit, p.chunk, r."row"
    HAVING count(*) = any_value(p.n_items)
), chunk_support AS (
    SELECT kind, unit, chunk, item, count(*) AS rows FROM est_dis_rows GROUP BY ALL
), counted AS (
    SELECT qid, kind, unit, chunk, count(*) AS rows FROM holding GROUP BY ALL
    UNION ALL
    SELECT p.qid, p.kind, p.unit, p.chunk, r.rows
    FROM pairs AS p
    JOIN pair_rows AS r ON r.kind = p.kind AND r.unit = p.unit AND r.chunk = p.chunk
                       AND r.lo = p.lo AND r.hi = p.hi
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
  ON c.qid = p.qid AND c.kind = p.kind AND c.unit = p.unit AND c.chunk = p.chunk;

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

-- name: est_gen_class_nodes
-- Each distinct released transaction as an antichain of weighted nodes that covers the same
-- leaves with the same chance. A copy of a node over L leaves stands for a given leaf under it
-- with chance 1/L (one copy in a set release), copies add, capped at 1. Where a transaction
-- holds a node and a node below it (an "open" node, as LCG releases do), the open node is
-- replaced by its children, down to the lower node; each resulting node weighs the sum of the
-- released nodes above or at it. Each leaf is then covered by at most one node of a class.
-- "Above" is the preorder range test within a class (a covers b when b is in a.id..a.last),
-- never `closure` joined on its ancestor side, which pairs a node with its whole subtree
-- (issue 26); closure is read only upwards, from the lower node of each pair. Each row carries
-- its class's `support`, so the counts need not join the classes again, and whether the class
-- surely holds the node's leaf (`certain`: a node over one leaf is released at or below it;
-- every released node generalizes an item of its transaction).
-- The one generalized estimator (#42): `evaluate` runs it on the run's classes, `estimate` on
-- a release file's (est_gen_node, est_gen_classes, est_gen_probes); $multiset: copies add.
CREATE OR REPLACE TEMP TABLE est_gen_class_nodes AS
WITH released AS (
    SELECT c.cls, c.node, any_value(n.last) AS last,
           least(1.0, (CASE WHEN $multiset THEN count(*) ELSE 1 END) / any_value(n.leaf_count))
               AS weight, any_value(c.support) AS support, any_value(n.leaf_count) = 1 AS certain
    FROM (SELECT cls, support, unnest(nodes) AS node FROM eval_classes) AS c
    JOIN node AS n ON n.id = c.node
    GROUP BY c.cls, c.node
), flagged AS (
    -- a node lies under another of its class when an earlier one in preorder reaches it
    SELECT *, coalesce(max(last) OVER (PARTITION BY cls ORDER BY node
                                       ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING),
                       -1) >= node AS nested
    FROM released
), nested_classes AS (
    SELECT DISTINCT cls FROM flagged WHERE nested
), below_top AS (
    -- every released node under another one of its class, with the highest of those above it
    -- (the smallest preorder id)
    SELECT b.cls, b.node, min(a.node) AS top
    FROM flagged AS b
    JOIN released AS a ON a.cls = b.cls AND b.node > a.node AND b.node <= a.last
    WHERE b.nested
    GROUP BY b.cls, b.node
), open AS (
    -- the nodes on the way up from each such node to its top one, the top one included
    SELECT DISTINCT b.cls, x.ancestor AS node
    FROM below_top AS b
    JOIN closure AS x ON x.node = b.node AND x.distance > 0 AND x.ancestor >= b.top
), nested_released AS (
    SELECT r.* FROM released AS r SEMI JOIN nested_classes AS c ON c.cls = r.cls
), flat AS (
    SELECT cls, node FROM nested_released
    UNION
    SELECT o.cls, n.id AS node FROM open AS o JOIN node AS n ON n.parent = o.node
)
-- a class without nested nodes is an antichain already
SELECT r.cls, r.node, r.weight, r.support, r.certain
FROM released AS r
ANTI JOIN nested_classes AS c ON c.cls = r.cls
UNION ALL
SELECT f.cls, f.node, least(1.0, sum(r.weight)) AS weight, any_value(r.support) AS support,
       bool_or(r.certain) AS certain
FROM flat AS f
ANTI JOIN open AS o ON o.cls = f.cls AND o.node = f.node
JOIN nested_released AS r ON r.cls = f.cls AND f.node BETWEEN r.node AND r.last
GROUP BY f.cls, f.node;

-- name: est_gen_covers
-- For every probe Q, every way to pick, for each of its items, a released node equal to the
-- item or above it (`nodes`, sorted; repeats kept): the released transactions holding all the
-- nodes of some pick are those covering Q.
CREATE OR REPLACE TEMP TABLE est_gen_covers AS
WITH RECURSIVE released AS (
    SELECT DISTINCT node FROM est_gen_class_nodes
), probe_items AS (
    SELECT workload, size, qid, unnest(itemset) AS item, generate_subscripts(itemset, 1) AS pos
    FROM eval_probes
), choices AS (
    SELECT p.workload, p.size, p.qid, p.pos, a.ancestor AS node
    FROM probe_items AS p
    JOIN closure AS a ON a.node = p.item
    SEMI JOIN released AS r ON r.node = a.ancestor
), covers(workload, size, qid, pos, nodes) AS (
    SELECT workload, size, qid, pos, [node] FROM choices WHERE pos = 1
    UNION ALL
    SELECT c.workload, c.size, c.qid, c.pos, list_append(v.nodes, c.node)
    FROM covers AS v
    JOIN choices AS c ON c.workload = v.workload AND c.size = v.size AND c.qid = v.qid
                     AND c.pos = v.pos + 1
)
SELECT workload, size, qid, list_sort(nodes) AS nodes
FROM covers
WHERE pos = size;

-- name: est_gen_node_tuples
-- For every sorted tuple of nodes a probe's cover picks: how many released transactions hold
-- them all (`candidates`), and the sum over them of the products of the nodes' weights
-- (`estimate`; a repeated node counts its weight again). Each leaf being covered by at most
-- one node of a class, a probe's answer is a sum over its covers. A tuple's two rarest nodes
-- (held by the fewest classes) are matched by a join of each class with itself, only the
-- pairs some tuple begins with kept; the classes holding them are then looked up for each
-- further node, by (class, node). The work is the classes holding a tuple's two rarest
-- nodes, never every tuple a class could form, and no row per (tuple, class) is joined to
-- anything but the class's next node: sums are taken per tuple first.
CREATE OR REPLACE TEMP TABLE est_gen_node_tuples AS
WITH needed AS (
    SELECT row_number() OVER () AS tuple, nodes FROM (SELECT DISTINCT nodes FROM est_gen_covers)
), classes_of AS (
    SELECT node, count(*) AS classes FROM est_gen_class_nodes GROUP BY node
), parts AS (
    SELECT n.tuple, u.node, count(*) AS times, len(list_distinct(any_value(n.nodes))) AS width
    FROM needed AS n, unnest(n.nodes) AS u(node)
    GROUP BY n.tuple, u.node
), positions AS (
    -- a tuple with a node no class holds drops out: no class covers it
    SELECT p.tuple, p.node, p.times, p.width,
           row_number() OVER (PARTITION BY p.tuple ORDER BY c.classes, p.node) AS pos
    FROM parts AS p
    JOIN classes_of AS c ON c.node = p.node
    QUALIFY count(*) OVER (PARTITION BY p.tuple) = p.width
), firsts AS (
    -- each tuple of 2+ nodes: its two rarest nodes, in id order, with how often each repeats
    SELECT p1.tuple, p1.width, least(p1.node, p2.node) AS lo, greatest(p1.node, p2.node) AS hi,
           CASE WHEN p1.node < p2.node THEN p1.times ELSE p2.times END AS lo_times,
           CASE WHEN p1.node < p2.node THEN p2.times ELSE p1.times END AS hi_times
    FROM positions AS p1
    JOIN positions AS p2 ON p2.tuple = p1.tuple AND p2.pos = 2
    WHERE p1.pos = 1
), pair_hits AS MATERIALIZED (
    -- the pairs of a class's nodes (by id) that begin some tuple: a join within each class
    SELECT a.cls, a.support, a.node AS lo, b.node AS hi, a.weight AS lo_weight,
           b.weight AS hi_weight, a.certain AND b.certain AS certain
    FROM est_gen_class_nodes AS a
    JOIN est_gen_class_nodes AS b ON b.cls = a.cls AND b.node > a.node
    SEMI JOIN firsts AS f ON f.lo = a.node AND f.hi = b.node
), anchors AS MATERIALIZED (
    -- every tuple of 2+ nodes in every class holding its two rarest nodes
    SELECT f.tuple, f.width, h.cls, h.support, h.certain,
           pow(h.lo_weight, f.lo_times) * pow(h.hi_weight, f.hi_times) AS weight
    FROM firsts AS f
    JOIN pair_hits AS h ON h.lo = f.lo AND h.hi = f.hi
), held AS (
    -- (tuple, support, weight) of every class holding the whole tuple: 1 node, 2 nodes, 3
    -- nodes (one lookup each), more (the lookups counted per class)
    SELECT p.tuple, c.support, pow(c.weight, p.times) AS weight, c.certain
    FROM positions AS p
    JOIN est_gen_class_nodes AS c ON c.node = p.node
    WHERE p.width = 1
    UNION ALL
    SELECT tuple, support, weight, certain FROM anchors WHERE width = 2
    UNION ALL
    SELECT a.tuple, a.support, a.weight * pow(c.weight, p.times) AS weight,
           a.certain AND c.certain AS certain
    FROM anchors AS a
    JOIN positions AS p ON p.tuple = a.tuple AND p.pos = 3
    JOIN est_gen_class_nodes AS c ON c.cls = a.cls AND c.node = p.node
    WHERE a.width = 3
    UNION ALL
    SELECT a.tuple, any_value(a.support) AS support,
           any_value(a.weight) * product(pow(c.weight, p.times)) AS weight,
           any_value(a.certain) AND bool_and(c.certain) AS certain
    FROM anchors AS a
    JOIN positions AS p ON p.tuple = a.tuple AND p.pos > 2
    JOIN est_gen_class_nodes AS c ON c.cls = a.cls AND c.node = p.node
    WHERE a.width > 3
    GROUP BY a.tuple, a.cls
    HAVING count(*) = any_value(a.width) - 2
), sums AS (
    SELECT tuple, sum(support * weight) AS estimate, sum(support) AS candidates,
           coalesce(sum(support) FILTER (WHERE certain), 0) AS proven
    FROM held
    GROUP BY tuple
)
SELECT n.nodes, s.estimate, s.candidates, s.proven
FROM sums AS s
JOIN needed AS n ON n.tuple = s.tuple;

-- name: est_gen_scores
-- For every probe Q: the released transactions covering it (an attack's candidates, the upper
-- bound of its support), those surely holding it (`proven`, the lower bound: each item
-- released as itself, or as a node over it alone) and the estimated support est(Q) = sum over
-- released transactions R of prod over q in Q of p_R(q), the sums over its covers' node tuples.
CREATE OR REPLACE TEMP TABLE est_gen_scores AS
SELECT v.workload, v.size, v.qid,
       sum(t.estimate) AS estimate, sum(t.candidates) AS candidates, sum(t.proven) AS proven
FROM est_gen_covers AS v
JOIN est_gen_node_tuples AS t ON t.nodes = v.nodes
GROUP BY v.workload, v.size, v.qid;

-- name: est_gen_node
-- The hierarchy numbered in preorder (`node` as a stored dataset has it: id, label, parent id,
-- depth, last id of the subtree, leaves below): each node's path from its root, sorted
-- (a path sorts before its extensions), gives its id.
CREATE OR REPLACE TEMP TABLE node AS
WITH RECURSIVE labels AS (
    SELECT child AS label FROM hierarchy UNION SELECT parent FROM hierarchy
), walk(label, parent, path) AS (
    SELECT l.label, CAST(NULL AS VARCHAR), [l.label]
    FROM labels AS l
    ANTI JOIN hierarchy AS h ON h.child = l.label
    UNION ALL
    SELECT h.child, w.label, list_append(w.path, h.child)
    FROM walk AS w
    JOIN hierarchy AS h ON h.parent = w.label
), numbered AS (
    SELECT label, parent, path, CAST(row_number() OVER (ORDER BY path) - 1 AS INTEGER) AS id
    FROM walk
), leaf AS (
    SELECT n.label, NOT EXISTS (SELECT 1 FROM hierarchy AS h WHERE h.parent = n.label) AS is_leaf
    FROM numbered AS n
), below AS (
    -- every node with each node at or above it, by label
    SELECT u.above, count(*) AS nodes, count(*) FILTER (WHERE f.is_leaf) AS leaves
    FROM numbered AS n, unnest(n.path) AS u(above)
    JOIN leaf AS f ON f.label = n.label
    GROUP BY u.above
)
SELECT n.id, n.label, p.id AS parent, CAST(len(n.path) - 1 AS INTEGER) AS depth,
       CAST(n.id + b.nodes - 1 AS INTEGER) AS last, CAST(b.leaves AS INTEGER) AS leaf_count,
       f.is_leaf
FROM numbered AS n
JOIN below AS b ON b.above = n.label
JOIN leaf AS f ON f.label = n.label
LEFT JOIN numbered AS p ON p.label = n.parent;

-- name: est_gen_classes
-- A generalized release's distinct transactions (node ids sorted, copies kept) and how many
-- transactions were released as each: `eval_classes` as `evaluate` has it. A released label
-- the hierarchy lacks would stand for nothing: `setanon estimate` refuses such a release first
-- (est_gen_foreign_labels), as one made with another hierarchy.
CREATE OR REPLACE TEMP TABLE eval_classes AS
WITH per_tx AS (
    SELECT r.tid, list(n.id ORDER BY n.id) AS itemset
    FROM release AS r
    JOIN node AS n ON n.label = r.item
    GROUP BY r.tid
)
SELECT row_number() OVER (ORDER BY itemset) AS cls, itemset AS nodes, count(*) AS support
FROM per_tx
GROUP BY itemset;

-- name: est_gen_probes
-- The itemsets as `evaluate`'s probes over leaf ids; an item that is no leaf of the hierarchy
-- takes id -1, which no released node covers (its itemset's answer is 0).
CREATE OR REPLACE TEMP TABLE eval_probes AS
SELECT 'estimate' AS workload, CAST(count(*) AS INTEGER) AS size, w.qid,
       CAST(NULL AS BIGINT) AS tid, list(coalesce(n.id, -1) ORDER BY w.item) AS itemset,
       CAST(NULL AS BIGINT) AS actual
FROM (SELECT DISTINCT qid, item FROM queries) AS w
LEFT JOIN node AS n ON n.label = w.item AND n.is_leaf
GROUP BY w.qid;

-- name: est_gen_answers
-- Every itemset's estimate and bounds from est_gen_scores (0 where no class covers it).
CREATE OR REPLACE TEMP TABLE est_answers AS
SELECT p.qid, coalesce(s.estimate, 0) AS estimate, coalesce(s.proven, 0) AS lower,
       coalesce(s.candidates, 0) AS upper
FROM eval_probes AS p
LEFT JOIN est_gen_scores AS s USING (workload, size, qid);

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

-- name: est_file_columns
-- The release file's columns (no rows): it must have tid and item.
SELECT * FROM est_file_release LIMIT 0;

-- name: est_read_release
-- A generalized or synthetic release file, long (tid, item): ids and labels as text.
CREATE OR REPLACE TEMP TABLE release AS
SELECT CAST(tid AS VARCHAR) AS tid, CAST(item AS VARCHAR) AS item FROM est_file_release;

-- name: est_syn_answers
-- A synthetic release (a dpsets release, #44: new transactions of original items): each
-- itemset's support is the number of released transactions holding all its items, and nothing
-- more. It proves no bound on the original's support (lower and upper NULL): the release is
-- drawn from noisy counts, not made of the original's transactions.
CREATE OR REPLACE TEMP TABLE est_answers AS
WITH asked AS (SELECT DISTINCT qid, item FROM queries),
sizes AS (SELECT qid, count(*) AS n FROM asked GROUP BY qid),
held AS (
    SELECT a.qid, r.tid, count(*) AS hits
    FROM asked AS a
    JOIN (SELECT DISTINCT tid, item FROM release) AS r USING (item)
    GROUP BY a.qid, r.tid
)
SELECT s.qid, CAST(count(h.tid) AS DOUBLE) AS estimate, CAST(NULL AS BIGINT) AS lower,
       CAST(NULL AS BIGINT) AS upper
FROM sizes AS s
LEFT JOIN held AS h ON h.qid = s.qid AND h.hits = s.n
GROUP BY s.qid;

-- name: est_syn_items
-- The queried items a synthetic release holds (any other is unknown: support 0).
SELECT DISTINCT item FROM release SEMI JOIN queries USING (item);

-- name: est_dis_items
-- Every item a disassociated release holds somewhere.
SELECT DISTINCT item FROM record_chunks
UNION SELECT item FROM shared_chunks
UNION SELECT item FROM term_chunks;

-- name: est_answers_read
-- The answers, by query.
SELECT qid, estimate, lower, upper FROM est_answers ORDER BY qid;

-- name: est_dis_problems
-- A disassociated release folder checked before it is answered, from its files alone: the
-- tables hold together (no empty value, every cluster released once, every chunk of a
-- released cluster and every shared chunk of a released joint cluster, a cluster in one joint
-- cluster at most, no item twice in a row nor in two places of a cluster), every cluster of
-- at least $k records, no chunk with more rows than its (joint) cluster has records, no item
-- of a chunk in 1..k-1 of its rows (k^m for m >= 1), and enough rows and terms that no record
-- is empty. The first offending row of each problem, with how many there are.
WITH rows AS (
    SELECT 'record' AS kind, cluster AS unit, chunk, "row", item FROM record_chunks
    UNION ALL
    SELECT 'shared', joint, chunk, "row", item FROM shared_chunks
), unit_size AS (
    SELECT 'record' AS kind, cluster AS unit, size FROM clusters
    UNION ALL
    SELECT 'shared', j.joint, sum(c.size)
    FROM joint_clusters AS j JOIN clusters AS c USING (cluster)
    GROUP BY j.joint
), chunk_rows AS (
    SELECT kind, unit, chunk, count(DISTINCT "row") AS rows FROM rows GROUP BY ALL
), found(problem, detail) AS (
    SELECT 'an empty value', 'clusters' FROM clusters WHERE cluster IS NULL OR size IS NULL
    UNION ALL
    SELECT 'an empty value', kind || ' chunks' FROM rows
    WHERE unit IS NULL OR chunk IS NULL OR "row" IS NULL OR item IS NULL OR item = ''
    UNION ALL
    SELECT 'an empty value', 'term_chunks' FROM term_chunks
    WHERE cluster IS NULL OR item IS NULL OR item = ''
    UNION ALL
    SELECT 'an empty value', 'joint_clusters' FROM joint_clusters
    WHERE joint IS NULL OR cluster IS NULL
    UNION ALL
    SELECT 'a cluster released twice', 'cluster ' || cluster
    FROM clusters GROUP BY cluster HAVING count(*) > 1
    UNION ALL
    SELECT 'a cluster of fewer than k = ' || $k || ' records',
           'cluster ' || cluster || ' of size ' || size
    FROM clusters WHERE size < $k
    UNION ALL
    SELECT 'a chunk of a cluster not released', 'cluster ' || x.cluster
    FROM (SELECT cluster FROM record_chunks UNION SELECT cluster FROM term_chunks
          UNION SELECT cluster FROM joint_clusters) AS x
    ANTI JOIN clusters AS c ON c.cluster = x.cluster
    UNION ALL
    SELECT 'a shared chunk of a joint cluster not released', 'joint cluster ' || s.joint
    FROM (SELECT DISTINCT joint FROM shared_chunks) AS s
    ANTI JOIN joint_clusters AS j ON j.joint = s.joint
    UNION ALL
    SELECT 'a cluster in two joint clusters', 'cluster ' || cluster
    FROM joint_clusters GROUP BY cluster HAVING count(*) > 1
    UNION ALL
    SELECT 'an item twice in a row', kind || ' chunk ' || chunk || ' of ' || unit || ': ' || item
    FROM rows GROUP BY kind, unit, chunk, "row", item HAVING count(*) > 1
    UNION ALL
    SELECT 'an item in two places of a cluster', 'cluster ' || cluster || ': ' || item
    FROM (SELECT DISTINCT cluster, chunk, item FROM record_chunks
          UNION ALL
          SELECT cluster, NULL, item FROM term_chunks)
    GROUP BY cluster, item
    HAVING count(*) > 1
    UNION ALL
    SELECT 'a chunk with more rows than its cluster has records',
           r.kind || ' chunk ' || r.chunk || ' of ' || r.unit || ': ' || r.rows || ' rows, '
               || coalesce(s.size, 0) || ' records'
    FROM chunk_rows AS r
    LEFT JOIN unit_size AS s ON s.kind = r.kind AND s.unit = r.unit
    WHERE r.rows > coalesce(s.size, 0)
    UNION ALL
    SELECT 'an item of a chunk in fewer than k = ' || $k || ' of its rows',
           kind || ' chunk ' || chunk || ' of ' || unit || ': ' || item
    FROM rows GROUP BY kind, unit, chunk, item HAVING count(DISTINCT "row") < $k
    UNION ALL
    SELECT 'records that no row nor term can hold', 'cluster ' || c.cluster
    FROM clusters AS c
    LEFT JOIN (SELECT unit, sum(rows) AS rows FROM chunk_rows WHERE kind = 'record'
               GROUP BY unit) AS r ON r.unit = c.cluster
    LEFT JOIN (SELECT cluster, count(*) AS terms FROM term_chunks GROUP BY cluster) AS t
      ON t.cluster = c.cluster
    LEFT JOIN joint_clusters AS j ON j.cluster = c.cluster
    LEFT JOIN (SELECT unit, sum(rows) AS rows FROM chunk_rows WHERE kind = 'shared'
               GROUP BY unit) AS s ON s.unit = j.joint
    WHERE c.size > coalesce(r.rows, 0) + coalesce(t.terms, 0) * least(c.size, $k - 1)
                   + coalesce(s.rows, 0)
)
SELECT problem, any_value(detail ORDER BY detail) AS detail, count(*) AS n
FROM found
GROUP BY problem
ORDER BY problem;

-- name: est_gen_foreign_labels
-- The release's labels that are no node of the hierarchy (a release made with another one),
-- the most frequent first, with how many distinct ones there are.
SELECT r.item AS label, count(*) AS occurrences, count(*) OVER () AS labels
FROM release AS r
ANTI JOIN (SELECT child AS label FROM hierarchy UNION SELECT parent FROM hierarchy) AS h
  ON h.label = r.item
GROUP BY r.item
ORDER BY occurrences DESC, label
LIMIT 1;

-- name: est_rt_numbered
-- A table release's rows (`est_file_table`) numbered: one record a row, its set column and its
-- QI columns read apart by this number.
CREATE OR REPLACE TEMP TABLE est_file_rows AS
SELECT row_number() OVER () AS est_row_number, * FROM est_file_table;

-- name: est_rt_qi_release
-- A table release's QI column (`est_file_qi(rid, label)`) as items of `release(tid, item)`,
-- each label as $prefix || label (`COLUMN=label`).
INSERT INTO release
SELECT CAST(rid AS VARCHAR), $prefix || CAST(label AS VARCHAR)
FROM est_file_qi
WHERE label IS NOT NULL AND trim(CAST(label AS VARCHAR)) <> '';

-- name: est_rt_qi_blank
-- The rows of a table release without a value in a QI column (`est_file_qi`), the first.
SELECT min(rid) AS first, count(*) AS n
FROM est_file_qi
WHERE label IS NULL OR trim(CAST(label AS VARCHAR)) = '';

-- name: est_rt_release
-- A table release's released sets, read back as the verifier does (`rt_released_labels`), as
-- a generalized release `release(tid, item)`: one transaction a row.
CREATE OR REPLACE TEMP TABLE release AS
SELECT CAST(rid AS VARCHAR) AS tid, label AS item FROM rt_released_labels;

-- name: est_rt_blank
-- The rows whose released set reads back with an empty label (a NULL or blank item, a quote
-- left open), the first of them.
SELECT min(rid) AS first, count(DISTINCT rid) AS n
FROM rt_released_labels
WHERE label IS NULL OR trim(label) = '';
