-- horpart_clusters (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS cluster_members;

CREATE TABLE cluster_members
USING PARQUET AS
SELECT
  CAST(DENSE_RANK() OVER (ORDER BY p.path NULLS LAST, p.part NULLS LAST) AS INT) AS cluster,
  d.tid
FROM horpart_done AS d
JOIN horpart_part AS p
  ON p.part = d.part
ORDER BY
  cluster NULLS LAST,
  tid NULLS LAST;
