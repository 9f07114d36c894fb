-- rt_cuts_clusters (sql/rt_cuts.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS cluster;

CREATE TABLE cluster
USING PARQUET AS
SELECT
  v.rid,
  CAST(DENSE_RANK() OVER (ORDER BY p.part NULLS LAST) AS INT) - 1 AS cluster
FROM rel_value AS v
JOIN rt_part AS p
  ON p.cid = v.cid
ORDER BY
  v.rid NULLS LAST;
