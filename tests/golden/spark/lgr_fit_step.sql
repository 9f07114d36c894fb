-- lgr_fit_step (sql/lgr.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS lgr_fit_frontier__next;

CREATE TABLE `lgr_fit_frontier__next`
USING PARQUET AS
WITH probe AS (
  SELECT DISTINCT
    f.tid,
    f.pid,
    c.expanded
  FROM lgr_fit_frontier AS f
  JOIN partition_tree AS c
    ON c.parent = f.pid
), step AS (
  SELECT
    p.tid,
    p.pid,
    p.expanded,
    e.bit,
    e.rank,
    e.child
  FROM probe AS p
  JOIN tx AS t
    ON t.tid = p.tid
  JOIN partition_expand_step AS e
    ON e.item = t.item AND e.node = p.expanded
), bucket AS (
  SELECT
    tid,
    pid,
    expanded,
    BIT_OR(bit) AS mask,
    ARRAY_SORT(ARRAY_COMPACT(ARRAY_DISTINCT(COLLECT_LIST(child) FILTER(WHERE
      rank >= 64)))) AS wide
  FROM step
  GROUP BY
    tid,
    pid,
    expanded
)
SELECT
  b.tid,
  c.pid
FROM bucket AS b
JOIN partition_tree AS c
  ON c.parent = b.pid
  AND c.expanded = b.expanded
  AND c.mask IS NOT DISTINCT FROM b.mask
  AND c.wide IS NOT DISTINCT FROM b.wide;

DROP TABLE IF EXISTS lgr_fit_frontier;

ALTER TABLE lgr_fit_frontier__next
RENAME TO lgr_fit_frontier;
