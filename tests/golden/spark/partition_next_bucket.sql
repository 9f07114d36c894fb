-- partition_next_bucket (sql/partition.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS partition_bucket__next;

CREATE TABLE `partition_bucket__next`
USING PARQUET AS
WITH open_leftover AS (
  SELECT DISTINCT
    o.pid
  FROM partition_outcome AS o
  ANTI JOIN partition_blocked AS b
    ON b.pid = o.pid AND b.node = o.node
  WHERE
    $keep_leftover
)
SELECT
  b.tid,
  COALESCE(s.new_pid, b.pid) AS pid,
  b.expanded,
  b.mask,
  b.wide,
  b.tx_gain
FROM partition_bucket AS b
JOIN partition_split AS s
  ON s.tid = b.tid
WHERE
  (
    NOT s.new_pid IS NULL AND b.expanded <> s.expanded
  )
  OR (
    s.new_pid IS NULL AND b.pid IN (
      SELECT
        pid
      FROM open_leftover
    )
  );

DROP TABLE IF EXISTS partition_bucket;

ALTER TABLE partition_bucket__next
RENAME TO partition_bucket;
