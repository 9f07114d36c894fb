-- partition_block (sql/partition.sql) as Spark SQL; $name parameters left unbound
WITH verdict AS (
  SELECT DISTINCT
    pid,
    node,
    rolled_back,
    gain_rank,
    chosen
  FROM partition_outcome
)
INSERT INTO partition_blocked
SELECT
  o.pid,
  o.node
FROM verdict AS o
JOIN verdict AS c
  ON c.pid = o.pid AND c.chosen
WHERE
  o.rolled_back AND (
    o.gain_rank < c.gain_rank OR c.rolled_back
  )
UNION
SELECT
  pid,
  expanded
FROM partition_balance
WHERE
  new_pid IS NULL;
