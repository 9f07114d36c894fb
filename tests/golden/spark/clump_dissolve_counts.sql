-- clump_dissolve_counts (sql/clump.sql) as Spark SQL; $name parameters left unbound
DELETE FROM cluster_count
WHERE
  cluster IN (
    SELECT
      cluster
    FROM clump_stuck
  );
