-- information_loss (sql/metrics.sql) as Spark SQL; $name parameters left unbound
WITH cover AS (
  SELECT
    t.tid,
    t.item,
    MIN(n.ncp) AS ncp,
    MIN(n.lm) AS lm
  FROM tx AS t
  JOIN closure AS a
    ON a.node = t.item
  JOIN release AS r
    ON r.tid = t.tid AND r.node = a.ancestor
  JOIN node AS n
    ON n.id = r.node
  GROUP BY
    t.tid,
    t.item
), covered AS (
  SELECT
    COUNT(*) AS instances,
    COALESCE(SUM(ncp), 0) AS ncp,
    COALESCE(SUM(lm), 0) AS lm
  FROM cover
), original AS (
  SELECT
    COUNT(*) AS instances
  FROM tx
)
SELECT
  o.instances,
  COALESCE((
    c.ncp + (
      o.instances - c.instances
    )
  ) / NULLIF(o.instances, 0), 0) AS ncp,
  COALESCE((
    c.lm + (
      o.instances - c.instances
    )
  ) / NULLIF(o.instances, 0), 0) AS lm,
  o.instances - c.instances AS suppressed,
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
FROM original AS o, covered AS c;
