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
), placed AS NOT MATERIALIZED (
  SELECT
    w.qid,
    p.*
  FROM wanted AS w
  JOIN est_dis_places AS p
    ON p.item = w.item
), complete AS (
  /* the clusters releasing every item of a query (a one-item query: every place of it) */
  SELECT
    w.qid,
    p.cluster
  FROM wanted AS w
  JOIN est_dis_places AS p
    ON p.item = w.item
  JOIN sizes AS s
    ON s.qid = w.qid
  WHERE
    s.n_items > 1
  GROUP BY
    w.qid,
    p.cluster
  HAVING
    COUNT(*) = ANY_VALUE(s.n_items) IGNORE NULLS
  UNION ALL
  SELECT
    w.qid,
    p.cluster
  FROM wanted AS w
  JOIN est_dis_places AS p
    ON p.item = w.item
  JOIN sizes AS s
    ON s.qid = w.qid
  WHERE
    s.n_items = 1
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
), part_items AS (
  /* each chunk part's items, once (a shared chunk's item is placed once per cluster of its */
  /* joint cluster: matched per placement, its rows were joined that many times over) */
  SELECT DISTINCT
    w.qid,
    w.kind,
    w.unit,
    w.chunk,
    w.item,
    p.n_items
  FROM parts AS p
  JOIN placed AS w
    ON w.qid = p.qid
    AND w.cluster = p.cluster
    AND w.kind = p.kind
    AND w.unit = p.unit
    AND w.chunk = p.chunk
  WHERE
    p.kind <> 'term'
), holding AS (
  /* the rows of each chunk part of 2+ items holding every item the query has in that chunk */
  /* (an item is in a row at most once) */
  SELECT
    p.qid,
    p.kind,
    p.unit,
    p.chunk,
    r.`row`
  FROM part_items AS p
  JOIN est_dis_rows AS r
    ON r.kind = p.kind AND r.unit = p.unit AND r.chunk = p.chunk AND r.item = p.item
  WHERE
    p.n_items > 1
  GROUP BY
    p.qid,
    p.kind,
    p.unit,
    p.chunk,
    r.`row`
  HAVING
    COUNT(*) = ANY_VALUE(p.n_items) IGNORE NULLS
), chunk_support AS (
  SELECT
    kind,
    unit,
    chunk,
    item,
    COUNT(*) AS rows
  FROM est_dis_rows
  GROUP BY ALL
), counted AS (
  SELECT
    qid,
    kind,
    unit,
    chunk,
    COUNT(*) AS rows
  FROM holding
  GROUP BY ALL
  UNION ALL
  /* a part of one item: the rows holding the item in its chunk, counted once per chunk */
  SELECT
    p.qid,
    p.kind,
    p.unit,
    p.chunk,
    s.rows
  FROM part_items AS p
  JOIN chunk_support AS s
    ON s.kind = p.kind AND s.unit = p.unit AND s.chunk = p.chunk AND s.item = p.item
  WHERE
    p.n_items = 1
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
