-- Classes of at least $size rows cut top-down along the QIs' taxonomies (Mondrian's median
-- cuts, LeFevre et al. 2006, on taxonomy nodes): `rt_part(cid, part)` puts every distinct
-- combination of QI values (`rel_combo`) in one part; a part is cut along one attribute at a
-- time, by the children of the node that closes its values.

-- name: rt_cuts_start
-- One part holding every combination of QI values.
CREATE OR REPLACE TABLE rt_part AS
SELECT cid, 0 AS part FROM rel_combo ORDER BY cid;

-- name: rt_cuts_counts
-- How many rows of every open part (`rt_part_open(part)`) hold every leaf of every attribute.
SELECT p.part, u.attr, u.leaf, sum(u.weight)::BIGINT AS rows
FROM rt_part AS p
JOIN rt_part_open AS o ON o.part = p.part
JOIN (
    SELECT cid, weight, unnest(leaf) AS leaf, generate_subscripts(leaf, 1) AS attr FROM rel_combo
) AS u ON u.cid = p.cid
GROUP BY p.part, u.attr, u.leaf
ORDER BY p.part, u.attr, u.leaf;

-- name: rt_cuts_apply
-- Cut the parts of `rt_cut_to(part, attr, leaf, new_part)`: a combination moves to the new
-- part its leaf of the part's chosen attribute is sent to.
UPDATE rt_part AS p
SET part = t.new_part
FROM (
    SELECT cid, unnest(leaf) AS leaf, generate_subscripts(leaf, 1) AS attr FROM rel_combo
) AS u
JOIN rt_cut_to AS t ON t.attr = u.attr AND t.leaf = u.leaf
WHERE u.cid = p.cid AND t.part = p.part;

-- name: rt_cuts_clusters
-- Every row's class: the part of its combination of QI values.
CREATE OR REPLACE TABLE cluster AS
SELECT v.rid, dense_rank() OVER (ORDER BY p.part)::INTEGER - 1 AS cluster
FROM rel_value AS v
JOIN rt_part AS p ON p.cid = v.cid
ORDER BY v.rid;

-- name: rt_cuts_pool_rows
-- How many rows the pool part ($pool) holds.
SELECT coalesce(sum(c.weight), 0)::BIGINT AS rows
FROM rt_part AS p JOIN rel_combo AS c ON c.cid = p.cid
WHERE p.part = $pool;

-- name: rt_cuts_merge_pool
-- A pool too small to be a class joins the part $into.
UPDATE rt_part SET part = $into WHERE part = $pool;

-- name: rt_cuts_count
-- How many classes the cut made.
SELECT count(DISTINCT cluster) AS classes FROM cluster;
