-- partition_balance (sql/partition.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS partition_balance;

CREATE TABLE partition_balance
USING PARQUET AS
SELECT
  pid,
  node AS expanded,
  mask,
  wide,
  size,
  need,
  rolled_back,
  CASE
    WHEN size >= $k AND NOT rolled_back
    THEN CAST((
      $next - 1 + ROW_NUMBER() OVER (
        ORDER BY size < $k OR rolled_back NULLS LAST, pid NULLS LAST, mask NULLS LAST, wide NULLS LAST
      )
    ) AS INT)
  END AS new_pid
FROM partition_outcome
WHERE
  chosen;
