-- clump_dissolve_free (sql/clump.sql) as Spark SQL; $name parameters left unbound
INSERT INTO clump_free
SELECT
  o.tid,
  o.block,
  o.len
FROM cluster_of AS co
JOIN clump_stuck AS x
  ON x.cluster = co.cluster
JOIN clump_order AS o
  ON o.tid = co.tid;
