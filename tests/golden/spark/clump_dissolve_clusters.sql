-- clump_dissolve_clusters (sql/clump.sql) as Spark SQL; $name parameters left unbound
DELETE FROM clump_cluster
WHERE
  cluster IN (
    SELECT
      cluster
    FROM clump_stuck
  );
