-- rt_eval_estimate (sql/rt_evaluate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_rt_estimate;

CREATE TABLE eval_rt_estimate
USING PARQUET AS
WITH classes AS (
  SELECT
    q.qid,
    cc.cluster,
    1.0 / qn.leaf_count AS p_qi
  FROM eval_rt_query AS q
  JOIN cluster_closure AS cc
    ON cc.attr = q.attr
  JOIN rel_node AS qn
    ON qn.attr = q.attr AND qn.id = cc.node AND q.leaf BETWEEN qn.id AND qn.last
), covering AS (
  SELECT
    c.qid,
    g.rid,
    ANY_VALUE(c.p_qi) IGNORE NULLS AS p_qi,
    i.item,
    MAX(g.node) AS node
  FROM classes AS c
  JOIN eval_rt_query_item AS i
    ON i.qid = c.qid
  JOIN rt_node AS n
    ON i.item BETWEEN n.id AND n.last
  JOIN rt_generalized AS g
    ON g.cluster = c.cluster AND g.node = n.id
  GROUP BY
    c.qid,
    g.rid,
    i.item
), per_row AS (
  SELECT
    c.qid,
    c.rid,
    ANY_VALUE(c.p_qi) IGNORE NULLS AS p_qi,
    COUNT(*) AS covered,
    EXP(SUM(LN(1.0 / n.leaf_count))) AS p_items
  FROM covering AS c
  JOIN rt_node AS n
    ON n.id = c.node
  GROUP BY
    c.qid,
    c.rid
)
SELECT
  q.qid,
  COALESCE(SUM(r.p_qi * r.p_items), 0.0) AS estimate
FROM eval_rt_query AS q
LEFT JOIN per_row AS r
  ON r.qid = q.qid AND r.covered = q.size
GROUP BY
  q.qid
ORDER BY
  q.qid NULLS LAST;
