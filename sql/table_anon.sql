-- Relational k-anonymity by greedy set cover (Kenig & Tassa 2012). Dataset tables, in the data
-- schema: `rel_source(rid, ...)` the table as loaded, `rel_attr(attr, name)` its quasi-identifier
-- columns (attr = 1..r), `rel_node(attr, id, ...)` their taxonomies numbered in preorder,
-- `rel_combo(cid, weight, leaf[], path[][])` each distinct combination of QI values with its row
-- count and, per attribute, the leaf's ancestors root..leaf, and `rel_value(rid, cid)`.
-- A generalized record is a list `node[]` of one taxonomy node per attribute.

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

-- name: rel_mine_start
-- The first frontier: the all-root record (node 0 everywhere), supported by every row.
CREATE OR REPLACE TABLE frontier AS
SELECT 0::BIGINT AS rec,
       list(0 ORDER BY attr) AS node,
       list(0 ORDER BY attr) AS depth,
       (SELECT sum(weight) FROM rel_combo)::BIGINT AS support
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
-- once, reached from its smallest (parent, attribute), numbered from $offset in that order.
CREATE OR REPLACE TABLE next_frontier AS
WITH keeps AS (
    SELECT rec, min({'attr': attr, 'child': child}) AS first FROM narrowing WHERE same GROUP BY rec
), chosen AS (
    SELECT n.rec AS parent, n.attr, n.child, n.support,
           list_transform(f.node, lambda x, j: CASE WHEN j = n.attr THEN n.child ELSE x END) AS node,
           list_transform(f.depth, lambda x, j: CASE WHEN j = n.attr THEN x + 1 ELSE x END) AS depth
    FROM narrowing AS n
    JOIN frontier AS f ON f.rec = n.rec
    LEFT JOIN keeps AS s ON s.rec = n.rec
    WHERE s.rec IS NULL OR (n.attr = s.first.attr AND n.child = s.first.child)
), first_reach AS (
    SELECT min({'parent': parent, 'attr': attr, 'child': child, 'depth': depth,
                'support': support, 'node': node}) AS r
    FROM chosen
    GROUP BY node
)
SELECT $offset + row_number() OVER (ORDER BY r.parent, r.attr, r.child) - 1 AS rec,
       r.node AS node, r.depth AS depth, r.support AS support, r.parent AS parent,
       r.attr AS attr, r.child AS child
FROM first_reach;

-- name: rel_make_closed_record
-- The closed frequent records, filled level by level by the mining.
CREATE OR REPLACE TABLE closed_record (rec BIGINT, node INTEGER[], support BIGINT, level INTEGER);

-- name: rel_closed_cost
-- Every closed record with its cost d: the mean node cost over the attributes.
CREATE OR REPLACE TABLE closed_cost AS
WITH per_attribute AS (
    SELECT rec, unnest(node) AS id, generate_subscripts(node, 1) AS attr FROM closed_record
)
SELECT c.rec, c.node, c.support, c.level, avg(n.cost) AS cost
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
       avg(n.cost) AS cost
FROM cluster_closure AS c
JOIN rel_node AS n ON n.attr = c.attr AND n.id = c.node
GROUP BY c.cluster
ORDER BY c.cluster;
