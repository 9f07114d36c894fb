-- information_loss (sql/metrics.sql) as Spark SQL; $name parameters left unbound
WITH cover AS (
  SELECT
    t.tid,
    t.item,
    MIN(c.ncp) AS ncp,
    MIN(c.lm) AS lm
  FROM tx AS t
  LEFT JOIN (
    SELECT
      r.tid,
      n.id,
      n.last,
      n.ncp,
      n.lm
    FROM release AS r
    JOIN node AS n
      ON n.id = r.node
  ) AS c
    ON c.tid = t.tid AND t.item BETWEEN c.id AND c.last
  GROUP BY
    t.tid,
    t.item
), totals AS (
  SELECT
    COUNT(*) AS instances,
    COUNT(ncp) AS covered,
    COALESCE(SUM(ncp), 0) AS ncp,
    COALESCE(SUM(lm), 0) AS lm
  FROM cover
)
SELECT
  t.instances,
  COALESCE((
    t.ncp + (
      t.instances - t.covered
    )
  ) / NULLIF(t.instances, 0), 0) AS ncp,
  COALESCE((
    t.lm + (
      t.instances - t.covered
    )
  ) / NULLIF(t.instances, 0), 0) AS lm,
  t.instances - t.covered AS suppressed,
  (
    SELECT
      COUNT(*)
    FROM release
  ) AS released_items,
  (
    SELECT
      COUNT(*)
    FROM tids
  ) AS transactions
FROM totals AS t;
