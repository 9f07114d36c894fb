-- clump_start_clusters (sql/clump.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS clump_cluster;

CREATE TABLE clump_cluster
USING PARQUET AS
WITH gain AS (
  SELECT
    cluster,
    SUM(c * w) AS gain
  FROM cluster_count
  GROUP BY
    cluster
)
SELECT
  co.cluster,
  CAST($reach AS INT) AS reach,
  1 AS size,
  CAST(o.len AS BIGINT) AS items,
  g.gain
FROM cluster_of AS co
JOIN clump_order AS o
  ON o.tid = co.tid
JOIN gain AS g
  ON g.cluster = co.cluster
ORDER BY
  co.cluster NULLS LAST;
