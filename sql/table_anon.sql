-- Relational k-anonymity by greedy set cover (Kenig & Tassa 2012). Dataset tables, in the data
-- schema: `rel_source(rid, ...)` the table as loaded, `rel_attr(attr, name)` its quasi-identifier
-- columns (attr = 1..r), `rel_node(attr, id, ...)` their taxonomies numbered in preorder,
-- `rel_combo(cid, weight, leaf[], path[][])` each distinct combination of QI values with its row
-- count and, per attribute, the leaf's ancestors root..leaf, and `rel_value(rid, cid)`.
-- A generalized record is a list `node[]` of one taxonomy node per attribute.
-- Costs d are averaged in attribute order (`avg(cost ORDER BY attr)`): a parallel sum in any
-- order could make two equal costs differ in their last bit and flip a tie between runs.

-- name: rel_long_values
-- Every QI attribute's distinct values (`labels`, sorted) with how many rows hold each
-- (`counts`, in the same order), from `rel_long`: what each attribute's taxonomy is built from.
SELECT attr, list(label ORDER BY label) AS labels, list(n ORDER BY label) AS counts
FROM (SELECT attr, label, count(*) AS n FROM rel_long GROUP BY attr, label)
GROUP BY attr;

-- name: rel_value_leaves
-- Every row's leaf per attribute (from `rel_long(rid, attr, label)`): one list per row.
CREATE OR REPLACE TEMP TABLE rel_row_leaves AS
SELECT l.rid, list(n.id ORDER BY l.attr) AS leaf
FROM rel_long AS l
JOIN rel_node AS n ON n.attr = l.attr AND n.label = l.label
GROUP BY l.rid;

-- name: rel_make_combo
-- Each distinct combination of leaves, with its number of rows and its ancestor paths.
CREATE OR REPLACE TABLE rel_combo AS
WITH combos AS (
    SELECT leaf, count(*) AS weight FROM rel_row_leaves GROUP BY leaf
), numbered AS (
    SELECT row_number() OVER (ORDER BY leaf) - 1 AS cid, leaf, weight FROM combos
), paths AS (
    SELECT u.cid, list(p.path ORDER BY u.attr) AS path
    FROM (SELECT cid, unnest(leaf) AS leaf, generate_subscripts(leaf, 1) AS attr FROM numbered) AS u
    JOIN rel_path AS p ON p.attr = u.attr AND p.leaf = u.leaf
    GROUP BY u.cid
)
SELECT n.cid, n.weight, n.leaf, p.path
FROM numbered AS n JOIN paths AS p USING (cid)
ORDER BY n.cid;

-- name: rel_make_value
-- The combination of every row.
CREATE OR REPLACE TABLE rel_value AS
SELECT r.rid, c.cid
FROM rel_row_leaves AS r JOIN rel_combo AS c ON c.leaf = r.leaf
ORDER BY r.rid;

-- name: rel_taxonomy_sizes
-- How many nodes each quasi-identifier's taxonomy has (`nodes`), by attribute.
SELECT attr, count(*) AS nodes FROM rel_node GROUP BY attr ORDER BY attr;

-- name: rel_mine_start
-- The first frontier: the all-root record (node 0 everywhere), supported by every row, with its
-- cost d (the mean of the roots' costs).
CREATE OR REPLACE TABLE frontier AS
SELECT 0::BIGINT AS rec,
       list(0 ORDER BY attr) AS node,
       list(0 ORDER BY attr) AS depth,
       (SELECT sum(weight) FROM rel_combo)::BIGINT AS support,
       (SELECT avg(cost ORDER BY attr) FROM rel_node WHERE id = 0) AS cost
FROM rel_attr;

-- name: rel_closed_from_frontier
-- Frontier records no narrowing of which keeps the whole support: the closed ones.
INSERT INTO closed_record
SELECT f.rec, f.node, f.support, $level AS level
FROM frontier AS f
ANTI JOIN (SELECT rec FROM narrowing WHERE same) AS s ON s.rec = f.rec;

-- name: rel_next_frontier
-- The records to process next: the first support-keeping narrowing (by attribute, child) of a
-- record that is not closed (Lemma 3), every frequent narrowing of a closed one; each record
-- once, reached from its smallest (parent, attribute), with its cost d. With a $beam, only the
-- $beam of least ratio d / min(support, 2k - 1) (the greedy cover's ratio before any row is
-- covered; ties by parent, attribute, child) go on. Numbered from $offset in that order.
CREATE OR REPLACE TABLE next_frontier AS
WITH keeps AS (
    SELECT rec, min({'attr': attr, 'child': child}) AS first FROM narrowing WHERE same GROUP BY rec
), chosen AS (
    SELECT n.rec AS parent, n.attr, n.child, n.support,
           list_transform(f.node, lambda x, j: CASE WHEN j = n.attr THEN n.child ELSE x END) AS node,
           list_transform(f.depth, lambda x, j: CASE WHEN j = n.attr THEN x + 1 ELSE x END) AS depth,
           f.cost + (c.cost - p.cost) / len(f.node) AS cost
    FROM narrowing AS n
    JOIN frontier AS f ON f.rec = n.rec
    JOIN rel_node AS p ON p.attr = n.attr AND p.id = f.node[n.attr]
    JOIN rel_node AS c ON c.attr = n.attr AND c.id = n.child
    LEFT JOIN keeps AS s ON s.rec = n.rec
    WHERE s.rec IS NULL OR (n.attr = s.first.attr AND n.child = s.first.child)
), first_reach AS (
    SELECT min({'parent': parent, 'attr': attr, 'child': child, 'depth': depth,
                'support': support, 'node': node, 'cost': cost}) AS r
    FROM chosen
    GROUP BY node
), kept AS (
    SELECT r FROM first_reach
    QUALIFY $beam IS NULL OR row_number() OVER (
        ORDER BY r.cost / least(r.support, 2 * $k - 1), r.parent, r.attr, r.child) <= $beam
)
SELECT $offset + row_number() OVER (ORDER BY r.parent, r.attr, r.child) - 1 AS rec,
       r.node AS node, r.depth AS depth, r.support AS support, r.cost AS cost,
       r.parent AS parent, r.attr AS attr, r.child AS child
FROM kept;

-- name: rel_advance_frontier
-- The next level becomes the frontier: its records and their supporting rows.
DROP TABLE frontier;
DROP TABLE frontier_member;
CREATE TABLE frontier AS SELECT rec, node, depth, support, cost FROM next_frontier;
ALTER TABLE next_member RENAME TO frontier_member;

-- name: rel_mining_level
-- The mining's figures by level: records processed and their supporting rows (lists $l, $r, $m).
CREATE OR REPLACE TABLE mining_level AS
SELECT unnest($l) AS level, unnest($r) AS records, unnest($m) AS member_rows;

-- name: rel_make_closed_record
-- The closed frequent records, filled level by level by the mining.
CREATE OR REPLACE TABLE closed_record (rec BIGINT, node INTEGER[], support BIGINT, level INTEGER);

-- name: rel_closed_cost
-- Every closed record with its cost d: the mean node cost over the attributes.
CREATE OR REPLACE TABLE closed_cost AS
WITH per_attribute AS (
    SELECT rec, unnest(node) AS id, generate_subscripts(node, 1) AS attr FROM closed_record
)
SELECT c.rec, c.node, c.support, c.level, avg(n.cost ORDER BY p.attr) AS cost
FROM closed_record AS c
JOIN per_attribute AS p ON p.rec = c.rec
JOIN rel_node AS n ON n.attr = p.attr AND n.id = p.id
GROUP BY c.rec, c.node, c.support, c.level
ORDER BY c.rec;

-- name: rel_cluster_closure
-- The closure of every cluster: per attribute, the deepest node whose preorder interval holds
-- the cluster's smallest and largest leaf.
CREATE OR REPLACE TABLE cluster_closure AS
WITH leaves AS (
    SELECT cid, unnest(leaf) AS leaf, generate_subscripts(leaf, 1) AS attr FROM rel_combo
), spans AS (
    SELECT cl.cluster, l.attr, min(l.leaf) AS lo, max(l.leaf) AS hi, count(*) AS size
    FROM cluster AS cl
    JOIN rel_value AS v ON v.rid = cl.rid
    JOIN leaves AS l ON l.cid = v.cid
    GROUP BY cl.cluster, l.attr
)
SELECT s.cluster, s.attr, s.size, arg_max(n.id, n.depth) AS node
FROM spans AS s
JOIN rel_node AS n ON n.attr = s.attr AND n.id <= s.lo AND n.last >= s.hi
GROUP BY s.cluster, s.attr, s.size
ORDER BY s.cluster, s.attr;

-- name: rel_cluster_labels
-- Every cluster's closure as labels in attribute order, with its size and cost d.
CREATE OR REPLACE TABLE cluster_labels AS
SELECT c.cluster, any_value(c.size) AS size, list(n.label ORDER BY c.attr) AS labels,
       avg(n.cost ORDER BY c.attr) AS cost
FROM cluster_closure AS c
JOIN rel_node AS n ON n.attr = c.attr AND n.id = c.node
GROUP BY c.cluster
ORDER BY c.cluster;

-- Improvement phase over a k-clustering `work(rid, cluster)`: rows move to cheaper classes that
-- generalize them, classes of at least 2k rows split in two along one attribute's leaf order.
-- Neither step breaks k or raises the cost of any row.

-- name: rel_improve_ancestor
-- Every ancestor (leaf included) of every leaf the data holds, with its preorder end and cost:
-- the closure of leaves lo <= hi is the ancestor of lo with last >= hi of least cost.
CREATE OR REPLACE TABLE rel_ancestor AS
WITH leaves AS (
    SELECT DISTINCT unnest(leaf) AS leaf, generate_subscripts(leaf, 1) AS attr FROM rel_combo
)
SELECT l.attr, l.leaf, n.id AS node, n.last, n.cost
FROM leaves AS l
JOIN rel_node AS n ON n.attr = l.attr AND n.id <= l.leaf AND n.last >= l.leaf;

-- name: rel_improve_node_rows
-- The number of rows under every taxonomy node that holds any.
CREATE OR REPLACE TABLE improve_node_rows AS
SELECT l.attr, a.node, count(*) AS rows
FROM improve_leaf AS l JOIN rel_ancestor AS a ON a.attr = l.attr AND a.leaf = l.leaf
GROUP BY l.attr, a.node;

-- name: rel_improve_no_value
-- No sensitive column: one value for every row.
CREATE OR REPLACE TABLE improve_value AS SELECT rid, NULL::VARCHAR AS value FROM rel_value;

-- name: rel_improve_leaf
-- Every row's leaf per attribute, long.
CREATE OR REPLACE TABLE improve_leaf AS
SELECT v.rid, u.attr, u.leaf
FROM rel_value AS v
JOIN (SELECT cid, unnest(leaf) AS leaf, generate_subscripts(leaf, 1) AS attr FROM rel_combo) AS u
  USING (cid);

-- name: rel_improve_classes
-- Every class of `work`: its size, its closure node per attribute (and that node's preorder
-- end) and its cost d (mean of the closure nodes' costs).
CREATE OR REPLACE TABLE improve_class AS
WITH spans AS (
    SELECT w.cluster, l.attr, min(l.leaf) AS lo, max(l.leaf) AS hi, count(*) AS size
    FROM work AS w JOIN improve_leaf AS l USING (rid)
    GROUP BY w.cluster, l.attr
), closure AS (
    SELECT s.cluster, s.attr, s.size, max(a.node) AS node, min(a.last) AS last, min(a.cost) AS cost
    FROM spans AS s
    JOIN rel_ancestor AS a ON a.attr = s.attr AND a.leaf = s.lo AND a.last >= s.hi
    GROUP BY s.cluster, s.attr, s.size
)
SELECT cluster, any_value(size) AS size, list(node ORDER BY attr) AS node,
       list(last ORDER BY attr) AS last, avg(cost ORDER BY attr) AS cost
FROM closure
GROUP BY cluster;

-- name: rel_clustering_cost
-- The summed cost (size times the closure's cost d, as in `improve_class`) of the clustering in
-- `cluster_try(rid, cluster)`: how two starts of the improvement phase are compared.
WITH leaves AS (
    SELECT t.cluster, u.attr, u.leaf
    FROM cluster_try AS t
    JOIN rel_value AS v USING (rid)
    JOIN (
        SELECT cid, unnest(leaf) AS leaf, generate_subscripts(leaf, 1) AS attr FROM rel_combo
    ) AS u USING (cid)
), spans AS (
    SELECT cluster, attr, min(leaf) AS lo, max(leaf) AS hi, count(*) AS size
    FROM leaves
    GROUP BY cluster, attr
), closure AS (
    SELECT s.cluster, s.size, min(a.cost) AS cost
    FROM spans AS s
    JOIN rel_ancestor AS a ON a.attr = s.attr AND a.leaf = s.lo AND a.last >= s.hi
    GROUP BY s.cluster, s.attr, s.size
)
SELECT coalesce(sum(size * cost), 0) AS cost
FROM (SELECT cluster, any_value(size) AS size, avg(cost) AS cost FROM closure GROUP BY cluster);

-- name: rel_improve_moves
-- Rows that move to their combination's cheapest covering class (`improve_cover`) when that is
-- cheaper than their own: at most size - k rows leave a class (cheapest destinations, then rid).
CREATE OR REPLACE TABLE improve_move AS
WITH wanted AS (
    SELECT w.rid, w.cluster AS source, o.target, s.size,
           row_number() OVER (PARTITION BY w.cluster ORDER BY o.cost, w.rid) AS rank
    FROM work AS w
    JOIN rel_value AS v USING (rid)
    JOIN improve_cover AS o USING (cid)
    JOIN improve_class AS s ON s.cluster = w.cluster
    WHERE o.target <> w.cluster AND o.cost < s.cost
)
SELECT rid, source, target FROM wanted WHERE rank <= size - $k;

-- name: rel_improve_dissolvable
-- Classes every row of which has a cheaper covering class elsewhere (by `improve_cover`).
CREATE OR REPLACE TABLE improve_dissolvable AS
SELECT w.cluster
FROM work AS w
JOIN rel_value AS v USING (rid)
JOIN improve_class AS s ON s.cluster = w.cluster
LEFT JOIN improve_cover AS o ON o.cid = v.cid AND o.target <> w.cluster AND o.cost < s.cost
GROUP BY w.cluster
HAVING count(o.target) = count(*);

-- name: rel_improve_dissolvable_combos
-- The combinations of the rows of the dissolvable classes: the only ones whose cover matters.
CREATE OR REPLACE TABLE improve_combos AS
SELECT DISTINCT v.cid FROM work AS w JOIN improve_dissolvable USING (cluster) JOIN rel_value AS v USING (rid);

-- name: rel_improve_dissolve
-- Rows of dissolvable classes that all still find a cheaper class once the dissolvable ones are
-- no destinations (`improve_cover_rest`, the cover without them): they all move.
CREATE OR REPLACE TABLE improve_move AS
WITH wanted AS (
    SELECT w.rid, w.cluster AS source, o.target,
           count(o.target) OVER (PARTITION BY w.cluster) = count(*) OVER (PARTITION BY w.cluster)
               AS whole
    FROM work AS w
    JOIN improve_dissolvable AS d USING (cluster)
    JOIN rel_value AS v USING (rid)
    JOIN improve_class AS s ON s.cluster = w.cluster
    LEFT JOIN improve_cover_rest AS o ON o.cid = v.cid AND o.cost < s.cost
)
SELECT rid, source, target FROM wanted WHERE whole;

-- name: rel_improve_apply_moves
-- The clustering after the moves.
CREATE OR REPLACE TABLE work_next AS
SELECT w.rid, coalesce(m.target, w.cluster) AS cluster
FROM work AS w LEFT JOIN improve_move AS m USING (rid);

-- name: rel_improve_split_order
-- The rows of every class of at least 2k rows, numbered 1..n in each attribute's leaf order
-- (ties by combination, i.e. by the other attributes' leaves, then rid; `key`: the combination),
-- with the largest count of one sensitive value (`improve_value`) among rows 1..p (head) and
-- among rows p+1..n (tail), which bound the halves' diversity.
CREATE OR REPLACE TABLE split_order AS
WITH big AS (
    SELECT cluster, count(*) AS n FROM work GROUP BY cluster HAVING count(*) >= 2 * $k
), ordered AS (
    SELECT w.cluster, l.attr AS j, w.rid, b.n, v.cid AS key, s.value,
           row_number() OVER (PARTITION BY w.cluster, l.attr ORDER BY l.leaf, v.cid, w.rid) AS p
    FROM work AS w
    JOIN big AS b USING (cluster)
    JOIN improve_leaf AS l USING (rid)
    JOIN rel_value AS v USING (rid)
    JOIN improve_value AS s USING (rid)
), running AS (
    SELECT *,
           count(*) OVER (PARTITION BY cluster, j, value ORDER BY p
                          ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS upto,
           count(*) OVER (PARTITION BY cluster, j, value ORDER BY p
                          ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS from_here
    FROM ordered
)
SELECT cluster, j, rid, n, key, p,
       max(upto) OVER (PARTITION BY cluster, j ORDER BY p
                       ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS head_top,
       coalesce(max(from_here) OVER (PARTITION BY cluster, j ORDER BY p
                                     ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING), 0)
           AS tail_top
FROM running;

-- name: rel_improve_split_choice
-- Every big class's cheapest cut: after position p of attribute j's order, between two distinct
-- combinations, both halves of at least k rows (and, with $l, l-diverse), kept only when its summed
-- cost is below the class's.
-- A half's closure per attribute i comes from the running min and max leaf of i.
CREATE OR REPLACE TABLE split_choice AS
WITH spans AS (
    SELECT o.cluster, o.j, o.p, o.n, o.key, o.head_top, o.tail_top, l.attr AS i,
           min(l.leaf) OVER head AS lo_l, max(l.leaf) OVER head AS hi_l,
           min(l.leaf) OVER tail AS lo_r, max(l.leaf) OVER tail AS hi_r,
           lead(o.key) OVER (PARTITION BY o.cluster, o.j, l.attr ORDER BY o.p) AS next_key
    FROM split_order AS o JOIN improve_leaf AS l USING (rid)
    WINDOW head AS (PARTITION BY o.cluster, o.j, l.attr ORDER BY o.p
                    ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW),
           tail AS (PARTITION BY o.cluster, o.j, l.attr ORDER BY o.p
                    ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING)
), cuts AS (
    SELECT * FROM spans
    WHERE p BETWEEN $k AND n - $k AND next_key <> key
      AND ($l IS NULL OR (p >= $l * head_top AND n - p >= $l * tail_top))
), head_cost AS (
    SELECT c.cluster, c.j, c.p, c.i, min(a.cost) AS cost
    FROM cuts AS c JOIN rel_ancestor AS a ON a.attr = c.i AND a.leaf = c.lo_l AND a.last >= c.hi_l
    GROUP BY c.cluster, c.j, c.p, c.i
), tail_cost AS (
    SELECT c.cluster, c.j, c.p, c.i, min(a.cost) AS cost
    FROM cuts AS c JOIN rel_ancestor AS a ON a.attr = c.i AND a.leaf = c.lo_r AND a.last >= c.hi_r
    GROUP BY c.cluster, c.j, c.p, c.i
), totals AS (
    SELECT h.cluster, h.j, h.p,
           h.p * avg(h.cost ORDER BY h.i) + (any_value(s.size) - h.p) * avg(t.cost ORDER BY t.i)
               AS total
    FROM head_cost AS h
    JOIN tail_cost AS t USING (cluster, j, p, i)
    JOIN improve_class AS s ON s.cluster = h.cluster
    GROUP BY h.cluster, h.j, h.p
), best AS (
    SELECT t.cluster, arg_min({'j': t.j, 'p': t.p}, (t.total, t.j, t.p)) AS cut, min(t.total) AS total
    FROM totals AS t
    GROUP BY t.cluster
)
SELECT b.cluster, b.cut.j AS j, b.cut.p AS p,
       (SELECT max(cluster) FROM work) + row_number() OVER (ORDER BY b.cluster) AS new_cluster
FROM best AS b JOIN improve_class AS s USING (cluster)
WHERE b.total < s.size * s.cost - 1e-9;

-- name: rel_improve_apply_split
-- The clustering after the splits: the rows past the cut form the new class.
CREATE OR REPLACE TABLE work_next AS
SELECT w.rid, CASE WHEN o.p > s.p THEN s.new_cluster ELSE w.cluster END AS cluster
FROM work AS w
LEFT JOIN split_choice AS s USING (cluster)
LEFT JOIN split_order AS o ON o.cluster = w.cluster AND o.j = s.j AND o.rid = w.rid;

-- Evictions: a class keeps the rows under one child of its closure node on one attribute (at
-- least k of them) and sends every other row to the cheapest class (not itself, not evicting)
-- whose closure already covers it. The kept rows' closure shrinks; the destinations' stays.

-- name: rel_improve_branch
-- Every row's child of its class's closure node on every attribute where that node is not a
-- leaf, with its class's size and cost.
CREATE OR REPLACE TABLE improve_branch AS
WITH closure AS (
    SELECT cluster, size, cost, unnest(node) AS node, generate_subscripts(node, 1) AS attr
    FROM improve_class
)
SELECT w.rid, w.cluster, c.size, c.cost, l.attr AS i, a.node AS child
FROM work AS w
JOIN improve_leaf AS l USING (rid)
JOIN closure AS c ON c.cluster = w.cluster AND c.attr = l.attr
JOIN rel_ancestor AS a ON a.attr = l.attr AND a.leaf = l.leaf
JOIN rel_node AS n ON n.attr = a.attr AND n.id = a.node AND n.parent = c.node;

-- name: rel_improve_shrink
-- Every (class, attribute i, child) holding at least $k but not all of the class's rows, with
-- the closure of those rows alone (node and preorder end per attribute) and its cost d.
CREATE OR REPLACE TABLE improve_shrink AS
WITH kept AS (
    SELECT cluster, i, child, count(*) AS n
    FROM improve_branch
    GROUP BY cluster, i, child
    HAVING count(*) >= $k AND count(*) < any_value(size)
), spans AS (
    SELECT k.cluster, k.i, k.child, k.n, l.attr, min(l.leaf) AS lo, max(l.leaf) AS hi
    FROM kept AS k
    JOIN improve_branch AS b USING (cluster, i, child)
    JOIN improve_leaf AS l ON l.rid = b.rid
    GROUP BY k.cluster, k.i, k.child, k.n, l.attr
), closure AS (
    SELECT s.cluster, s.i, s.child, s.n, s.attr,
           max(a.node) AS node, min(a.last) AS last, min(a.cost) AS cost
    FROM spans AS s
    JOIN rel_ancestor AS a ON a.attr = s.attr AND a.leaf = s.lo AND a.last >= s.hi
    GROUP BY s.cluster, s.i, s.child, s.n, s.attr
)
SELECT cluster, i, child, n, list(node ORDER BY attr) AS node, list(last ORDER BY attr) AS last,
       avg(cost ORDER BY attr) AS cost
FROM closure
GROUP BY cluster, i, child, n;

-- name: rel_improve_evict_gain
-- Every shrink's gain in summed cost: its kept rows' saving plus, for each row leaving, its
-- class's cost less its destination's (the other class of least cost that covers it, from the
-- two cheapest of `improve_cover`); `complete` when every row leaving has a destination.
CREATE OR REPLACE TABLE improve_evict_gain AS
WITH dest AS (
    SELECT w.rid, w.cluster,
           list_filter(o.best, lambda t: t.target <> w.cluster)[1] AS dest
    FROM work AS w JOIN rel_value AS v USING (rid) JOIN improve_cover AS o USING (cid)
), per_row AS (
    SELECT b.cluster, b.i, b.child, b.size, b.cost, d.dest.cost AS dest_cost
    FROM improve_branch AS b LEFT JOIN dest AS d USING (rid)
), whole AS (
    SELECT cluster, i, count(dest_cost) AS placed, sum(cost - dest_cost) AS saved
    FROM per_row GROUP BY cluster, i
), part AS (
    SELECT cluster, i, child, any_value(size) AS size, any_value(cost) AS cost,
           count(dest_cost) AS placed, coalesce(sum(cost - dest_cost), 0) AS saved
    FROM per_row GROUP BY cluster, i, child
)
SELECT s.cluster, s.i, s.child,
       s.n * (p.cost - s.cost) + coalesce(w.saved, 0) - p.saved AS gain,
       w.placed - p.placed = p.size - s.n AS complete
FROM improve_shrink AS s
JOIN part AS p USING (cluster, i, child)
JOIN whole AS w USING (cluster, i);

-- name: rel_improve_evict_choice
-- Every class's best complete shrink of positive gain.
CREATE OR REPLACE TABLE improve_evict_choice AS
SELECT cluster, arg_max({'i': i, 'child': child}, (round(gain, 9), -i, -child)) AS pick
FROM improve_evict_gain
WHERE complete AND gain > 1e-9
GROUP BY cluster;

-- name: rel_improve_evict_combos
-- The combinations of the rows the chosen shrinks would send away: the only ones whose
-- destinations matter (the choices only get fewer while they are judged).
CREATE OR REPLACE TABLE improve_combos AS
SELECT DISTINCT v.cid
FROM improve_evict_choice AS e
JOIN improve_branch AS b ON b.cluster = e.cluster AND b.i = e.pick.i AND b.child <> e.pick.child
JOIN rel_value AS v ON v.rid = b.rid;

-- name: rel_improve_dest
-- Where evicted rows may go: every class with the closure it will have after the round, its
-- kept rows' for the evicting classes (`improve_evict_choice`), its own for the others. An
-- evicting class takes in only rows its kept closure covers, never its own leaving rows (they
-- are not under the kept child), so two classes may trade rows.
CREATE OR REPLACE TABLE improve_dest AS
SELECT c.cluster, c.size, coalesce(s.node, c.node) AS node, coalesce(s.last, c.last) AS last,
       coalesce(s.cost, c.cost) AS cost
FROM improve_class AS c
LEFT JOIN improve_evict_choice AS e USING (cluster)
LEFT JOIN improve_shrink AS s ON s.cluster = e.cluster AND s.i = e.pick.i AND s.child = e.pick.child;

-- name: rel_improve_evict_judge
-- The rows of the chosen shrinks, leaving or not, each leaving one with its destination
-- (`improve_cover_rest`: the cheapest class of `improve_dest` covering it), and per class the
-- shrink's gain and its rows with no destination.
CREATE OR REPLACE TABLE improve_evict_judged AS
WITH leaving AS (
    SELECT b.rid, b.cluster, b.cost, b.child = e.pick.child AS stays, s.n, s.cost AS kept_cost,
           o.target, o.cost AS dest_cost
    FROM improve_evict_choice AS e
    JOIN improve_branch AS b ON b.cluster = e.cluster AND b.i = e.pick.i
    JOIN improve_shrink AS s ON s.cluster = e.cluster AND s.i = e.pick.i AND s.child = e.pick.child
    JOIN rel_value AS v ON v.rid = b.rid
    LEFT JOIN improve_cover_rest AS o ON o.cid = v.cid
)
SELECT rid, cluster, stays, target,
       any_value(n * (cost - kept_cost)) OVER per_class
           + coalesce(sum(CASE WHEN NOT stays THEN cost - dest_cost END) OVER per_class, 0)
           AS gain,
       count(CASE WHEN NOT stays AND target IS NULL THEN 1 END) OVER per_class AS homeless
FROM leaving
WINDOW per_class AS (PARTITION BY cluster);

-- name: rel_improve_evict_drop
-- Shrinks that no longer gain, or leave a row with no destination, are given up.
DELETE FROM improve_evict_choice
WHERE cluster IN (SELECT cluster FROM improve_evict_judged WHERE homeless > 0 OR gain <= 1e-9);

-- name: rel_improve_evict
-- The rows leaving the chosen shrinks (every one of which gains and places all its rows).
CREATE OR REPLACE TABLE improve_move AS
SELECT rid, cluster AS source, target FROM improve_evict_judged WHERE NOT stays;

-- name: rel_violations_k
-- The released classes (`table_classes`) with fewer than $k rows.
CREATE OR REPLACE TABLE violations_table_k AS
SELECT * FROM table_classes WHERE support < $k ORDER BY support;

-- name: rel_violations_l
-- The released classes less diverse than $l (none when $l is NULL).
CREATE OR REPLACE TABLE violations_table_l AS
SELECT * FROM table_classes WHERE diversity < $l ORDER BY diversity;

-- name: rel_verify_summary
-- The table verifier's counts: released rows and classes, and the offending rows of each check.
SELECT (SELECT count(*) FROM violations_table_validity) AS validity_problems,
       (SELECT count(*) FROM table_classes) AS classes,
       (SELECT count(*) FROM violations_table_k) AS failing_k,
       (SELECT count(*) FROM violations_table_l) AS failing_l,
       (SELECT count(*) FROM table_release) AS rows;

-- name: rel_sensitive_top
-- The whole table's most common sensitive value (`value`, held by `n` of its `rows` rows; ties
-- by value), from `rel_sensitive`.
SELECT (SELECT count(*) FROM rel_sensitive) AS rows, value, n
FROM (
    SELECT value, count(*) AS n FROM rel_sensitive GROUP BY value ORDER BY n DESC, value LIMIT 1
);

-- name: rel_diversity_rows
-- Every row's leaf combination and sensitive value, for the ℓ-merging.
SELECT v.rid, c.leaf, s.value
FROM rel_value AS v
JOIN rel_combo AS c USING (cid)
JOIN rel_sensitive AS s USING (rid);

-- name: rel_improve_value
-- Every row's sensitive value (from `rel_sensitive`), for ℓ-diverse splits.
CREATE OR REPLACE TABLE improve_value AS SELECT rid, value FROM rel_sensitive;

-- name: rel_improve_total
-- The summed cost (size x d of the closure) of the classes of `work` (`cost`).
SELECT sum(size * cost) AS cost FROM improve_class;

-- name: rel_improve_swap
-- The next state of the clustering (`work_next`) becomes the current one.
DROP TABLE work;
ALTER TABLE work_next RENAME TO work;

-- name: rel_improve_match_attribute
-- The attribute on which classes are matched to rows first (`attr`): the one whose class
-- closures hold the fewest rows in all, so few (row, class) pairs are tested.
SELECT u.attr
FROM (SELECT unnest(node) AS node, generate_subscripts(node, 1) AS attr FROM improve_class) AS u
JOIN improve_node_rows AS r ON r.attr = u.attr AND r.node = u.node
GROUP BY u.attr
ORDER BY sum(r.rows), u.attr
LIMIT 1;

-- name: rel_improve_width
-- How many quasi-identifiers a class's closure spans (`width`).
SELECT len(node) AS width FROM improve_class LIMIT 1;

-- name: rel_improve_evict_failing
-- Chosen evictions that leave rows homeless or no longer gain (`failing`).
SELECT count(*) AS failing FROM improve_evict_judged WHERE homeless > 0 OR gain <= 1e-9;

-- name: rel_improved_clusters
-- The improved clustering: each cluster's rows in rid order, clusters by their first row.
SELECT cluster, list(rid ORDER BY rid) AS rows FROM work GROUP BY cluster ORDER BY min(rid);

-- name: rel_l_merge_read
-- The ℓ-merges made, as they were kept.
SELECT * FROM l_merge;

-- name: rel_cover_rows
-- Every row's leaf combination, in rid order: the rows of each taxonomy node as bitsets.
SELECT v.rid, c.leaf FROM rel_value AS v JOIN rel_combo AS c USING (cid) ORDER BY v.rid;

-- name: rel_cover_nodes
-- Every taxonomy node with its parent, children before parents (preorder ids, descending).
SELECT attr, id, parent FROM rel_node ORDER BY attr, id DESC;

-- name: rel_cover_candidates
-- The closed records the greedy cover chooses from: their nodes, cost and support.
SELECT rec, node, cost, support FROM closed_cost;

-- name: rel_qi_names
-- The quasi-identifiers' column names, by attribute number.
SELECT name FROM rel_attr ORDER BY attr;

-- name: rel_release_columns
-- The columns of a table run's release (`column_name`, `column_type`).
DESCRIBE table_release;
