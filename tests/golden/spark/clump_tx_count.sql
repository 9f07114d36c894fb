-- clump_tx_count (sql/clump.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS tx_count;

CREATE TABLE tx_count
USING PARQUET AS
WITH counts AS (
  SELECT
    t.tid,
    c.ancestor AS node,
    COUNT(*) AS cnt
  FROM tx AS t
  JOIN closure AS c
    ON c.node = t.item
  GROUP BY
    t.tid,
    c.ancestor
)
SELECT
  counts.tid,
  counts.node,
  CAST(counts.cnt AS INT) AS cnt,
  CAST(COALESCE(up.leaf_count - n.leaf_count, 0) AS BIGINT) AS w
FROM counts
JOIN node AS n
  ON n.id = counts.node
LEFT JOIN node AS up
  ON up.id = n.parent
ORDER BY
  counts.tid NULLS LAST,
  counts.node NULLS LAST;
