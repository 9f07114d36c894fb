-- clump_swap_members (sql/clump.sql) as Spark SQL; $name parameters left unbound
INSERT INTO clump_swap_member
SELECT
  co.tid,
  co.cluster,
  o.len
FROM cluster_of AS co
JOIN clump_order AS o
  ON o.tid = co.tid
SEMI JOIN clump_dirty AS d
  ON d.cluster = co.cluster;
