-- de_part_rows (sql/evaluate_disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS de_part_rows;

CREATE TABLE de_part_rows
USING PARQUET AS
WITH parts AS (
  SELECT
    workload,
    size,
    qid,
    cluster,
    kind,
    unit,
    chunk,
    ANY_VALUE(unit_size) IGNORE NULLS AS unit_size,
    COLLECT_LIST(item) AS items,
    COUNT(*) AS n_items,
    MIN(rows) AS least_rows
  FROM de_probe_places
  WHERE
    kind <> 'term'
  GROUP BY
    workload,
    size,
    qid,
    cluster,
    kind,
    unit,
    chunk
), wide AS (
  SELECT
    *
  FROM parts
  WHERE
    n_items > 1
), holding AS (
  SELECT
    p.workload,
    p.size,
    p.qid,
    p.cluster,
    p.kind,
    p.unit,
    p.chunk,
    r.`row`
  FROM (
    SELECT
      *,
      EXPLODE(items) AS item
    FROM wide
  ) AS p
  JOIN de_rows AS r
    ON r.kind = p.kind AND r.unit = p.unit AND r.chunk = p.chunk AND r.item = p.item
  GROUP BY ALL
  HAVING
    COUNT(*) = ANY_VALUE(p.n_items) IGNORE NULLS
), counted AS (
  SELECT
    workload,
    size,
    qid,
    cluster,
    kind,
    unit,
    chunk,
    COUNT(*) AS rows
  FROM holding
  GROUP BY ALL
)
SELECT
  p.workload,
  p.size,
  p.qid,
  p.cluster,
  p.kind,
  p.unit,
  p.chunk,
  p.unit_size,
  CASE WHEN p.n_items = 1 THEN p.least_rows ELSE COALESCE(c.rows, 0) END AS rows
FROM parts AS p
LEFT JOIN counted AS c
  USING (workload, size, qid, cluster, kind, unit, chunk);
