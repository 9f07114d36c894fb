-- est_gen_answers (sql/estimate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS est_answers;

CREATE TABLE est_answers
USING PARQUET AS
WITH wanted AS (
  SELECT DISTINCT
    qid,
    item
  FROM queries
), sizes AS (
  SELECT
    qid,
    COUNT(*) AS n_items
  FROM wanted
  GROUP BY
    qid
), copies AS (
  SELECT
    tid,
    item AS node,
    COUNT(*) AS copies
  FROM release
  GROUP BY
    tid,
    item
), chance AS (
  SELECT
    w.qid,
    c.tid,
    w.item,
    LEAST(1.0, SUM(c.copies / a.leaves)) AS p,
    BOOL_OR(c.node = w.item) AS as_itself
  FROM wanted AS w
  JOIN est_gen_ancestors AS a
    ON a.leaf = w.item
  JOIN copies AS c
    ON c.node = a.ancestor
  GROUP BY
    w.qid,
    c.tid,
    w.item
), holders AS (
  SELECT
    c.qid,
    c.tid,
    PRODUCT(c.p) AS p,
    BOOL_AND(c.as_itself) AS certain
  FROM chance AS c
  JOIN sizes AS s
    ON s.qid = c.qid
  GROUP BY
    c.qid,
    c.tid
  HAVING
    COUNT(*) = ANY_VALUE(s.n_items) IGNORE NULLS
)
SELECT
  s.qid,
  COALESCE(SUM(h.p), 0) AS estimate,
  COUNT(h.tid) FILTER(WHERE
    h.certain) AS lower,
  COUNT(h.tid) AS upper
FROM sizes AS s
LEFT JOIN holders AS h
  ON h.qid = s.qid
GROUP BY
  s.qid;
