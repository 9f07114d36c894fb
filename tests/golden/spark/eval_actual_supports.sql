-- eval_actual_supports (sql/evaluate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_actual_supports;

CREATE TABLE eval_actual_supports
USING PARQUET AS
WITH probes AS (
  SELECT
    workload,
    size,
    qid,
    ROW_NUMBER() OVER () AS probe,
    itemset
  FROM eval_probes
  WHERE
    actual IS NULL AND workload <> 'attack'
), probe_items AS (
  SELECT
    probe,
    size,
    EXPLODE(itemset) AS item
  FROM probes
), frequency AS (
  SELECT
    t.item,
    COUNT(*) AS support
  FROM tx AS t
  SEMI JOIN probe_items AS p
    ON p.item = t.item
  GROUP BY
    t.item
), ranked AS (
  /* a probe with an item the original lacks drops out: its support is 0 */
  SELECT
    p.probe,
    p.size,
    p.item,
    f.support,
    ROW_NUMBER() OVER (PARTITION BY p.probe ORDER BY f.support NULLS LAST, p.item NULLS LAST) AS pos
  FROM probe_items AS p
  JOIN frequency AS f
    ON f.item = p.item
), firsts AS (
  /* each probe of 2+ items: its two least frequent items, in id order */
  SELECT
    r1.probe,
    r1.size,
    LEAST(r1.item, r2.item) AS lo,
    GREATEST(r1.item, r2.item) AS hi
  FROM ranked AS r1
  JOIN ranked AS r2
    ON r2.probe = r1.probe AND r2.pos = 2
  WHERE
    r1.pos = 1
), pair_tx AS MATERIALIZED (
  /* the transactions holding some probe's first pair: a join within each transaction */
  SELECT
    a.tid,
    a.item AS lo,
    b.item AS hi
  FROM (
    SELECT
      t.tid,
      t.item
    FROM tx AS t
    SEMI JOIN firsts AS f
      ON f.lo = t.item
  ) AS a
  JOIN (
    SELECT
      t.tid,
      t.item
    FROM tx AS t
    SEMI JOIN firsts AS f
      ON f.hi = t.item
  ) AS b
    ON b.tid = a.tid AND b.item > a.item
  SEMI JOIN firsts AS f
    ON f.lo = a.item AND f.hi = b.item
), pair_counts AS (
  SELECT
    lo,
    hi,
    COUNT(*) AS support
  FROM pair_tx
  GROUP BY
    lo,
    hi
), longer AS (
  /* the transactions holding a longer probe's first pair and every other item of it */
  SELECT
    f.probe,
    p.tid
  FROM firsts AS f
  JOIN pair_tx AS p
    ON p.lo = f.lo AND p.hi = f.hi
  JOIN ranked AS r
    ON r.probe = f.probe AND r.pos > 2
  JOIN tx AS t
    ON t.tid = p.tid AND t.item = r.item
  WHERE
    f.size > 2
  GROUP BY
    f.probe,
    p.tid
  HAVING
    COUNT(*) = ANY_VALUE(f.size) IGNORE NULLS - 2
), counted AS (
  SELECT
    probe,
    support AS actual
  FROM ranked
  WHERE
    size = 1
  UNION ALL
  SELECT
    f.probe,
    c.support AS actual
  FROM firsts AS f
  JOIN pair_counts AS c
    ON c.lo = f.lo AND c.hi = f.hi
  WHERE
    f.size = 2
  UNION ALL
  SELECT
    probe,
    COUNT(*) AS actual
  FROM longer
  GROUP BY
    probe
)
SELECT
  p.workload,
  p.size,
  p.qid,
  c.actual
FROM counted AS c
JOIN probes AS p
  ON p.probe = c.probe;
