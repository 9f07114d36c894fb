-- information_loss_multiset (sql/metrics.sql) as Spark SQL; $name parameters left unbound
WITH released AS (
  SELECT
    COUNT(*) AS copies,
    COALESCE(SUM(n.ncp), 0) AS ncp,
    COALESCE(SUM(n.lm), 0) AS lm
  FROM release AS r
  JOIN node AS n
    ON n.id = r.node
), original AS (
  SELECT
    COUNT(*) AS instances
  FROM tx
)
SELECT
  o.instances,
  COALESCE((
    r.ncp + (
      o.instances - r.copies
    )
  ) / NULLIF(o.instances, 0), 0) AS ncp,
  COALESCE((
    r.lm + (
      o.instances - r.copies
    )
  ) / NULLIF(o.instances, 0), 0) AS lm,
  o.instances - r.copies AS suppressed,
  r.copies AS released_items,
  (
    SELECT
      COUNT(*)
    FROM tids
  ) AS transactions
FROM released AS r, original AS o;
