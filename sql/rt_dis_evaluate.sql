-- Mixed queries and attacks on a (k, k^m) run whose set column is disassociated inside every
-- class (issue 41, `relational/rt_dis_evaluate.py`). The queries and targets are drawn and
-- counted on the original as for the generalized release (`sql/rt_evaluate.sql`:
-- `eval_rt_query`, `eval_rt_query_item`, `eval_rt_actual`, `eval_rt_target`,
-- `eval_rt_target_item`); their itemsets go through the disassociation estimator of
-- `setanon estimate` (`sql/estimate.sql`, est_dis_rows .. est_dis_cluster_answers) as
-- `queries(qid, item)`, per cluster; these blocks weigh its answers by the QI predicate.

-- name: rtde_queries
-- The mixed queries' itemsets as the estimator's queries: items by their labels, as the chunks
-- release them.
CREATE OR REPLACE TEMP TABLE queries AS
SELECT i.qid, n.label AS item
FROM eval_rt_query_item AS i
JOIN rt_node AS n ON n.id = i.item;

-- name: rtde_targets
-- The attacks' known items as the estimator's queries (a target's number as its qid).
CREATE OR REPLACE TEMP TABLE queries AS
SELECT i.tid AS qid, n.label AS item
FROM eval_rt_target_item AS i
JOIN rt_node AS n ON n.id = i.item;

-- name: rtde_set_class
-- Every cluster of the set column with its class (`rtd_class`) and one cluster of the QIs of
-- that class (`cluster`): all its rows share one class, so any row's QI cluster gives the
-- class's released QI nodes (`cluster_closure`).
CREATE OR REPLACE TEMP TABLE rtde_set_class AS
SELECT r.set_cluster AS cluster, min(c.class) AS class, min(q.cluster) AS qi_cluster
FROM rtd_row_cluster AS r
JOIN rtd_class AS c ON c.rid = r.rid
JOIN cluster AS q ON q.rid = r.rid
GROUP BY r.set_cluster
ORDER BY cluster;

-- name: rtde_estimate
-- Every query's estimate: per cluster (or joint cluster, inside one class too) the
-- estimator's count of the itemset, times the share of a row of its class holding the QI
-- value (1 / leaves of the released node when it covers the value, else 0), summed.
CREATE OR REPLACE TABLE eval_rt_estimate AS
WITH answers AS (
    SELECT a.qid, coalesce(a.cluster, j.cluster) AS cluster, a.estimate
    FROM est_dis_cluster_answers AS a
    LEFT JOIN (SELECT joint, min(cluster) AS cluster FROM joint_clusters GROUP BY joint) AS j
      ON a.cluster IS NULL AND j.joint = a.joint
), p_qi AS (
    SELECT q.qid, s.cluster, 1.0 / qn.leaf_count AS p_qi
    FROM eval_rt_query AS q
    JOIN cluster_closure AS cc ON cc.attr = q.attr
    JOIN rtde_set_class AS s ON s.qi_cluster = cc.cluster
    JOIN rel_node AS qn
      ON qn.attr = q.attr AND qn.id = cc.node AND q.leaf BETWEEN qn.id AND qn.last
)
SELECT q.qid, coalesce(sum(p.p_qi * a.estimate), 0.0) AS estimate
FROM eval_rt_query AS q
LEFT JOIN answers AS a ON a.qid = q.qid
LEFT JOIN p_qi AS p ON p.qid = a.qid AND p.cluster = a.cluster
GROUP BY q.qid
ORDER BY q.qid;

-- name: rtde_attack
-- Every target's candidates: the rows of its class whose cluster could hold every item the
-- adversary knows (each released there, and the items a chunk holds together on one of its
-- rows at least). A cluster's rows share their QIs and no row is linked to a chunk row, so
-- each of them may be the target.
CREATE OR REPLACE TABLE eval_rt_attack AS
WITH holding AS (
    SELECT qid AS tid, cluster
    FROM est_dis_parts
    GROUP BY qid, cluster
    HAVING bool_and(kind = 'term' OR rows > 0)
), candidates AS (
    SELECT t.tid, sum(c.size)::BIGINT AS rows
    FROM eval_rt_target AS t
    JOIN rtd_class AS mine ON mine.rid = t.rid
    JOIN holding AS h ON h.tid = t.tid
    JOIN rtde_set_class AS s ON s.cluster = h.cluster AND s.class = mine.class
    JOIN clusters AS c ON c.cluster = h.cluster
    GROUP BY t.tid
)
SELECT t.tid, t.size, coalesce(c.rows, 0) AS candidates
FROM eval_rt_target AS t
LEFT JOIN candidates AS c ON c.tid = t.tid
ORDER BY t.tid;
