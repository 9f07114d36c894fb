-- partition_child_rank (sql/partition.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS partition_child_rank;

CREATE TABLE partition_child_rank
USING PARQUET AS
SELECT
  *,
  CASE WHEN rank < 64 THEN SHIFTLEFT(CAST(1 AS BIGINT), rank) END AS bit
FROM (
  SELECT
    id,
    parent,
    CAST((
      ROW_NUMBER() OVER (PARTITION BY parent ORDER BY id NULLS LAST) - 1
    ) AS INT) AS rank
  FROM node
  WHERE
    NOT parent IS NULL
);
