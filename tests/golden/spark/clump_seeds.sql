-- clump_seeds (sql/clump.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS cluster_of;

CREATE TABLE cluster_of
USING PARQUET AS
SELECT
  tid,
  block AS cluster
FROM clump_order
WHERE
  pos % $k = $k DIV 2 AND block < $clusters
ORDER BY
  cluster NULLS LAST;
