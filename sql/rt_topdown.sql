-- The top-down item search of a (k, k^m) run: every class chooses its own set of hierarchy
-- nodes `rt_trial(cluster, node)` (the root always among them), and each of its items is
-- released as the deepest chosen node above it (`rt_cut`, as the level-wise search leaves it).

-- name: rt_subtree_records
-- How many records of every class hold an item under every node: a node held by fewer than
-- $k can never be released on its own, and a rejected candidate is the one of fewest records.
SELECT c.cluster, n.id AS node, count(DISTINCT t.rid) AS records
FROM rt_tx AS t
JOIN cluster AS c ON c.rid = t.rid
JOIN rt_node AS n ON t.item BETWEEN n.id AND n.last
GROUP BY c.cluster, n.id
HAVING count(DISTINCT t.rid) >= $k
ORDER BY c.cluster, n.id;

-- name: rt_trial_cut
-- Every class's items mapped to the deepest node of `rt_trial` above them (in preorder the
-- deepest of nested nodes has the largest id).
CREATE OR REPLACE TABLE rt_cut AS
SELECT x.cluster, x.item, max(s.node) AS node
FROM (SELECT DISTINCT c.cluster, t.item FROM rt_tx AS t JOIN cluster AS c ON c.rid = t.rid) AS x
JOIN rt_trial AS s ON s.cluster = x.cluster
JOIN rt_node AS n ON n.id = s.node AND x.item BETWEEN n.id AND n.last
GROUP BY x.cluster, x.item
ORDER BY x.cluster, x.item;
