-- clump_start_counts (sql/clump.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS cluster_count;

CREATE TABLE cluster_count
USING PARQUET AS
SELECT
  co.cluster,
  tc.node,
  tc.cnt AS c,
  tc.w
FROM cluster_of AS co
JOIN tx_count AS tc
  ON tc.tid = co.tid
ORDER BY
  co.cluster NULLS LAST,
  tc.node NULLS LAST;
