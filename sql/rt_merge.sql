-- Merging the classes of the QIs of a (k, k^m) run (RTMERGE, Poulis et al. 2013): what Python
-- needs to choose the merges, per class, and the one statement that applies them.

-- name: rt_merge_spans
-- Every class's rows and, per attribute, its smallest and largest leaf (what its closure is
-- made from) and its item instances.
WITH leaves AS (
    SELECT cid, unnest(leaf) AS leaf, generate_subscripts(leaf, 1) AS attr FROM rel_combo
), items AS (
    SELECT c.cluster, count(*) AS instances
    FROM rt_tx AS t JOIN cluster AS c ON c.rid = t.rid
    GROUP BY c.cluster
)
SELECT cl.cluster, l.attr, min(l.leaf) AS lo, max(l.leaf) AS hi, count(*) AS rows,
       any_value(i.instances) AS instances
FROM cluster AS cl
JOIN rel_value AS v ON v.rid = cl.rid
JOIN leaves AS l ON l.cid = v.cid
JOIN items AS i ON i.cluster = cl.cluster
GROUP BY cl.cluster, l.attr
ORDER BY cl.cluster, l.attr;

-- name: rt_merge_apply
-- Every class of `rt_merge_to(cluster, into)` joins the class it was merged into.
UPDATE cluster AS c
SET cluster = t."into"
FROM rt_merge_to AS t
WHERE c.cluster = t.cluster;
