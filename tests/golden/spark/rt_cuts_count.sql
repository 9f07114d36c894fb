-- rt_cuts_count (sql/rt_cuts.sql) as Spark SQL; $name parameters left unbound
SELECT
  COUNT(DISTINCT cluster) AS classes
FROM cluster;
