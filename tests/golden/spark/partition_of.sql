-- partition_of (sql/partition.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS partition_of;

CREATE TABLE partition_of
USING PARQUET AS
WITH last AS (
  SELECT
    tid,
    MAX(pid) AS pid
  FROM (
    SELECT
      tid,
      pid
    FROM partition_done
    UNION ALL
    SELECT
      tid,
      pid
    FROM partition_moves
    UNION ALL
    SELECT
      tid,
      pid
    FROM partition_bucket
  )
  GROUP BY
    tid
)
SELECT
  t.tid,
  CAST(COALESCE(l.pid, 0) AS BIGINT) AS pid
FROM tids AS t
LEFT JOIN last AS l
  ON l.tid = t.tid;
