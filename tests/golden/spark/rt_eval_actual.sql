-- rt_eval_actual (sql/rt_evaluate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_rt_actual;

CREATE TABLE eval_rt_actual
USING PARQUET AS
WITH leaves AS (
  SELECT
    v.rid,
    u.attr,
    u.leaf
  FROM rel_value AS v
  JOIN (
    SELECT
      cid,
      EXPLODE(leaf) AS leaf,
      GENERATE_SUBSCRIPTS(leaf, 1) AS attr
    FROM rel_combo
  ) AS u
    ON u.cid = v.cid
), held AS (
  SELECT
    q.qid,
    l.rid
  FROM eval_rt_query AS q
  JOIN leaves AS l
    ON l.attr = q.attr AND l.leaf = q.leaf
  JOIN eval_rt_query_item AS i
    ON i.qid = q.qid
  JOIN rt_tx AS t
    ON t.rid = l.rid AND t.item = i.item
  GROUP BY
    q.qid,
    l.rid
  HAVING
    COUNT(*) = ANY_VALUE(q.size) IGNORE NULLS
)
SELECT
  q.qid,
  COUNT(h.rid) AS actual
FROM eval_rt_query AS q
LEFT JOIN held AS h
  ON h.qid = q.qid
GROUP BY
  q.qid
ORDER BY
  q.qid NULLS LAST;
