-- information_loss (sql/metrics.sql) as Spark SQL; $name parameters left unbound
SELECT
  CAST($instances AS BIGINT) AS instances,
  COALESCE(
    (
      CAST($ncp AS DOUBLE) + (
        CAST($instances AS BIGINT) - CAST($covered AS BIGINT)
      )
    ) / NULLIF(CAST($instances AS BIGINT), 0),
    0
  ) AS ncp,
  COALESCE(
    (
      CAST($lm AS DOUBLE) + (
        CAST($instances AS BIGINT) - CAST($covered AS BIGINT)
      )
    ) / NULLIF(CAST($instances AS BIGINT), 0),
    0
  ) AS lm,
  CAST($instances AS BIGINT) - CAST($covered AS BIGINT) AS suppressed,
  (
    SELECT
      COUNT(*)
    FROM release
  ) AS released_items,
  (
    SELECT
      COUNT(*)
    FROM tids
  ) AS transactions;
