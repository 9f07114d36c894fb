-- partition_outcome (sql/partition.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS partition_outcome;

CREATE TABLE partition_outcome
USING PARQUET AS
WITH bucket AS (
  SELECT
    pid,
    expanded AS node,
    mask,
    wide,
    COUNT(*) AS size,
    CAST(SUM(tx_gain) AS BIGINT) AS bucket_gain
  FROM partition_bucket
  WHERE
    $wide
  GROUP BY
    pid,
    expanded,
    mask,
    wide
  UNION ALL
  SELECT
    pid,
    expanded AS node,
    mask,
    CAST(NULL AS ARRAY<INT>) AS wide,
    COUNT(*) AS size,
    CAST(SUM(tx_gain) AS BIGINT) AS bucket_gain
  FROM partition_bucket
  WHERE
    NOT $wide
  GROUP BY
    pid,
    expanded,
    mask
), per_node AS (
  SELECT
    pid,
    node,
    CAST(SUM(bucket_gain) AS BIGINT) AS gain_units,
    COALESCE(SUM(bucket_gain) FILTER(WHERE
      size >= $k), 0) AS realized_units,
    COALESCE(SUM(size) FILTER(WHERE
      size < $k), 0) AS small,
    COALESCE(SUM(size - $k) FILTER(WHERE
      size >= $k), 0) AS spares,
    COUNT(*) FILTER(WHERE
      size >= $k) AS large_buckets
  FROM bucket
  GROUP BY
    pid,
    node
), decided AS (
  SELECT
    p.pid,
    p.node,
    CASE WHEN p.small BETWEEN 1 AND $k - 1 THEN $k - p.small ELSE 0 END AS need,
    p.large_buckets = 0
    OR (
      p.small BETWEEN 1 AND $k - 1 AND $k - p.small > p.spares
    ) AS rolled_back,
    p.gain_units,
    p.realized_units,
    ROW_NUMBER() OVER (
      PARTITION BY p.pid
      ORDER BY CASE WHEN $realized THEN p.realized_units END DESC, p.gain_units DESC, p.node NULLS LAST
    ) AS gain_rank
  FROM per_node AS p
  ANTI JOIN partition_blocked AS x
    ON x.pid = p.pid AND x.node = p.node
), pick AS (
  /* the rank each partition expands: its best that is not rolled back, else 1 (an aggregate, */
  /* not a second window: a window's set-up costs more than the few rows it orders) */
  SELECT
    pid,
    CASE
      WHEN $first_only
      THEN 1
      ELSE COALESCE(MIN(gain_rank) FILTER(WHERE
        NOT rolled_back), 1)
    END AS chosen_rank
  FROM decided
  GROUP BY
    pid
)
SELECT
  d.*,
  d.gain_rank = c.chosen_rank AS chosen,
  b.mask,
  b.wide,
  b.size,
  b.bucket_gain
FROM decided AS d
JOIN pick AS c
  ON c.pid = d.pid
JOIN bucket AS b
  ON b.pid = d.pid AND b.node = d.node;
