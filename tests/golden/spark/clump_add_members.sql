-- clump_add_members (sql/clump.sql) as Spark SQL; $name parameters left unbound
INSERT INTO cluster_of
SELECT
  tid,
  cluster
FROM clump_round;
