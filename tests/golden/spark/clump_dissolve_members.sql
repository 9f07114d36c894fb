-- clump_dissolve_members (sql/clump.sql) as Spark SQL; $name parameters left unbound
DELETE FROM cluster_of
WHERE
  cluster IN (
    SELECT
      cluster
    FROM clump_stuck
  );
