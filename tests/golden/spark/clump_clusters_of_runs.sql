-- clump_clusters_of_runs (sql/clump.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS cluster_of;

CREATE TABLE cluster_of
USING PARQUET AS
SELECT
  o.tid,
  r.cluster
FROM clump_order AS o
ASOF JOIN clump_run AS r
  ON o.pos >= r.pos
ORDER BY
  o.tid NULLS LAST;
