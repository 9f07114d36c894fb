-- information_loss_span (sql/metrics.sql) as Spark SQL; $name parameters left unbound
SELECT
  (
    SELECT
      MIN(tid)
    FROM tids
  ) AS first_tid,
  (
    SELECT
      MAX(tid)
    FROM tids
  ) AS last_tid,
  (
    SELECT
      COUNT(*)
    FROM tx
  ) AS instances;
