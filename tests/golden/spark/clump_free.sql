-- clump_free (sql/clump.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS clump_free;

CREATE TABLE clump_free
USING PARQUET AS
SELECT
  o.tid,
  o.block,
  o.len
FROM clump_order AS o
ANTI JOIN cluster_of AS co
  ON co.tid = o.tid
ORDER BY
  o.tid NULLS LAST;
