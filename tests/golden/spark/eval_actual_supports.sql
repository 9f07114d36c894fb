-- eval_actual_supports (sql/evaluate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_actual_supports;

CREATE TABLE eval_actual_supports
USING PARQUET AS
WITH probe_items AS (
  SELECT
    workload,
    size,
    qid,
    EXPLODE(itemset) AS item
  FROM eval_probes
  WHERE
    actual IS NULL AND workload <> 'attack'
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
  SELECT
    p.*,
    ROW_NUMBER() OVER (
      PARTITION BY p.workload, p.size, p.qid
      ORDER BY f.support NULLS LAST, p.item NULLS LAST
    ) AS pos
  FROM probe_items AS p
  JOIN frequency AS f
    ON f.item = p.item
), driver AS (
  SELECT
    r.workload,
    r.size,
    r.qid,
    t.tid
  FROM ranked AS r
  JOIN tx AS t
    ON t.item = r.item
  WHERE
    r.pos = 1
), matched AS (
  SELECT
    d.workload,
    d.size,
    d.qid,
    d.tid
  FROM driver AS d
  JOIN ranked AS r
    ON r.workload = d.workload AND r.size = d.size AND r.qid = d.qid AND r.pos > 1
  JOIN tx AS t
    ON t.tid = d.tid AND t.item = r.item
  GROUP BY
    d.workload,
    d.size,
    d.qid,
    d.tid
  HAVING
    COUNT(*) = ANY_VALUE(d.size) IGNORE NULLS - 1
)
SELECT
  workload,
  size,
  qid,
  COUNT(*) AS actual
FROM (
  SELECT
    *
  FROM driver
  WHERE
    size = 1
  UNION ALL
  SELECT
    *
  FROM matched
)
GROUP BY
  workload,
  size,
  qid;
