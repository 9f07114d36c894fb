-- clump_update_counts (sql/clump.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS cluster_count__next;

CREATE TABLE `cluster_count__next`
USING PARQUET AS
WITH added AS (
  SELECT
    cluster,
    COUNT(*) AS n
  FROM clump_round
  GROUP BY
    cluster
), added_count AS (
  SELECT
    r.cluster,
    tc.node,
    MIN(tc.cnt) AS c,
    COUNT(*) AS n
  FROM clump_round AS r
  JOIN tx_count AS tc
    ON tc.tid = r.tid
  GROUP BY
    r.cluster,
    tc.node
)
SELECT
  cc.cluster,
  cc.node,
  CAST(LEAST(cc.c, COALESCE(ac.c, cc.c)) AS INT) AS c,
  cc.w
FROM cluster_count AS cc
LEFT JOIN added AS a
  ON a.cluster = cc.cluster
LEFT JOIN added_count AS ac
  ON ac.cluster = cc.cluster AND ac.node = cc.node
WHERE
  a.cluster IS NULL OR ac.n = a.n
ORDER BY
  cc.cluster NULLS LAST,
  cc.node NULLS LAST;

DROP TABLE IF EXISTS cluster_count;

ALTER TABLE cluster_count__next
RENAME TO cluster_count;
