-- rt_eval_estimate (sql/rt_evaluate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_rt_estimate;

CREATE TABLE eval_rt_estimate
USING PARQUET AS
WITH covering AS (
  SELECT
    i.qid,
    g.rid,
    ANY_VALUE(g.cluster) IGNORE NULLS AS cluster,
    i.item,
    MAX(g.node) AS node
  FROM eval_rt_query_item AS i
  JOIN rt_node AS n
    ON i.item BETWEEN n.id AND n.last
  JOIN rt_generalized AS g
    ON g.node = n.id
  GROUP BY
    i.qid,
    g.rid,
    i.item
), per_row AS (
  SELECT
    c.qid,
    c.rid,
    ANY_VALUE(c.cluster) IGNORE NULLS AS cluster,
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
  COALESCE(SUM(r.p_items / qn.leaf_count), 0.0) AS estimate
FROM eval_rt_query AS q
LEFT JOIN per_row AS r
  ON r.qid = q.qid AND r.covered = q.size
LEFT JOIN cluster_closure AS cc
  ON cc.cluster = r.cluster AND cc.attr = q.attr
LEFT JOIN rel_node AS qn
  ON qn.attr = q.attr AND qn.id = cc.node AND q.leaf BETWEEN qn.id AND qn.last
GROUP BY
  q.qid
ORDER BY
  q.qid NULLS LAST;
