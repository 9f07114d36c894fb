-- est_dis_parts (sql/estimate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS est_dis_parts;

CREATE TABLE est_dis_parts
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
), placed AS (
  SELECT
    w.qid,
    p.*
  FROM wanted AS w
  JOIN est_dis_places AS p
    ON p.item = w.item
), complete AS (
  SELECT
    p.qid,
    p.cluster
  FROM placed AS p
  JOIN sizes AS s
    ON s.qid = p.qid
  GROUP BY
    p.qid,
    p.cluster
  HAVING
    COUNT(*) = ANY_VALUE(s.n_items) IGNORE NULLS
), parts AS (
  SELECT
    p.qid,
    p.cluster,
    p.kind,
    p.unit,
    p.chunk,
    ANY_VALUE(p.unit_size) IGNORE NULLS AS unit_size,
    COUNT(*) AS n_items
  FROM placed AS p
  SEMI JOIN complete AS c
    ON c.qid = p.qid AND c.cluster = p.cluster
  GROUP BY
    p.qid,
    p.cluster,
    p.kind,
    p.unit,
    p.chunk
), chunk_parts AS (
  SELECT DISTINCT
    qid,
    kind,
    unit,
    chunk,
    n_items
  FROM parts
  WHERE
    kind <> 'term'
), holding AS (
  /* the rows of each chunk part holding every item the query has in that chunk */
  SELECT
    p.qid,
    p.kind,
    p.unit,
    p.chunk,
    r.`row`
  FROM chunk_parts AS p
  JOIN placed AS w
    ON w.qid = p.qid AND w.kind = p.kind AND w.unit = p.unit AND w.chunk = p.chunk
  JOIN est_dis_rows AS r
    ON r.kind = p.kind AND r.unit = p.unit AND r.chunk = p.chunk AND r.item = w.item
  GROUP BY
    p.qid,
    p.kind,
    p.unit,
    p.chunk,
    r.`row`
  HAVING
    COUNT(DISTINCT w.item) = ANY_VALUE(p.n_items) IGNORE NULLS
), counted AS (
  SELECT
    qid,
    kind,
    unit,
    chunk,
    COUNT(*) AS rows
  FROM holding
  GROUP BY ALL
)
SELECT
  p.*,
  CASE WHEN p.kind = 'term' THEN NULL ELSE COALESCE(c.rows, 0) END AS rows
FROM parts AS p
LEFT JOIN counted AS c
  ON c.qid = p.qid
  AND c.kind = p.kind
  AND c.unit = p.unit
  AND c.chunk IS NOT DISTINCT FROM p.chunk;
