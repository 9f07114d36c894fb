-- instance_loss (sql/instance_loss.sql) as Spark SQL; $name parameters left unbound
WITH totals AS (
  SELECT
    SUM((
      matched - below
    ) * ncp) AS ncp,
    SUM((
      matched - below
    ) * lm) AS lm,
    SUM(matched) FILTER(WHERE
      parent IS NULL) AS matched
  FROM instance_match
), original AS (
  SELECT
    COUNT(*) AS instances
  FROM tx
)
SELECT
  o.instances,
  COALESCE((
    t.ncp + o.instances - t.matched
  ) / NULLIF(o.instances, 0), 0) AS ncp,
  COALESCE((
    t.lm + o.instances - t.matched
  ) / NULLIF(o.instances, 0), 0) AS lm,
  o.instances - COALESCE(t.matched, 0) AS suppressed,
  (
    SELECT
      COUNT(*)
    FROM release
  ) AS released_items,
  (
    SELECT
      COUNT(*)
    FROM release
  ) - COALESCE(t.matched, 0) AS unmatched_copies
FROM totals AS t, original AS o;
