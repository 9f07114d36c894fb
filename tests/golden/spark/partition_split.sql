-- partition_split (sql/partition.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS partition_split;

CREATE TABLE partition_split
USING PARQUET AS
WITH placed AS (
  SELECT
    b.tid,
    b.pid,
    b.expanded,
    b.tx_gain,
    l.size,
    l.need,
    l.new_pid
  FROM partition_bucket AS b
  JOIN partition_balance AS l
    ON l.pid = b.pid
    AND l.expanded = b.expanded
    AND l.mask IS NOT DISTINCT FROM b.mask
    AND (
      NOT $wide OR l.wide IS NOT DISTINCT FROM b.wide
    )
), donor AS (
  SELECT
    tid
  FROM (
    SELECT
      tid,
      ROW_NUMBER() OVER (PARTITION BY pid ORDER BY tx_gain NULLS LAST, tid NULLS LAST) AS _w,
      need
    FROM (
      SELECT
        tid,
        pid,
        tx_gain,
        need,
        size,
        ROW_NUMBER() OVER (PARTITION BY new_pid ORDER BY tx_gain NULLS LAST, tid NULLS LAST) AS rank_in_bucket
      FROM placed
      WHERE
        need > 0 AND NOT new_pid IS NULL
    )
    WHERE
      rank_in_bucket <= size - $k
  ) AS _t
  WHERE
    _w <= need
)
SELECT
  p.tid,
  p.pid,
  p.expanded,
  CASE WHEN o.tid IS NULL THEN p.new_pid END AS new_pid
FROM placed AS p
LEFT JOIN donor AS o
  USING (tid);
