-- clump_cluster_sizes (sql/clump.sql) as Spark SQL; $name parameters left unbound
SELECT
  COUNT(*) FILTER(WHERE
    size < $k) AS open,
  COUNT(*) FILTER(WHERE
    size >= $k) AS complete
FROM clump_cluster;
