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
), pairs AS (
  SELECT
    r1.probe,
    r1.size,
    t1.tid
  FROM ranked AS r1
  JOIN ranked AS r2
    ON r2.probe = r1.probe AND r2.pos = 2
  JOIN tx AS t1
    ON t1.item = r1.item
  JOIN tx AS t2
    ON t2.tid = t1.tid AND t2.item = r2.item
  WHERE
    r1.pos = 1
), longer AS (
  SELECT
    p.probe,
    p.tid
  FROM pairs AS p
  JOIN ranked AS r
    ON r.probe = p.probe AND r.pos > 2
  JOIN tx AS t
    ON t.tid = p.tid AND t.item = r.item
  WHERE
    p.size > 2
  GROUP BY
    p.probe,
    p.tid
  HAVING
    COUNT(*) = ANY_VALUE(p.size) IGNORE NULLS - 2
), counted AS (
  SELECT
    probe,
    support AS actual
  FROM ranked
  WHERE
    size = 1
  UNION ALL
  SELECT
    probe,
    COUNT(*) AS actual
  FROM pairs
  WHERE
    size = 2
  GROUP BY
    probe
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
