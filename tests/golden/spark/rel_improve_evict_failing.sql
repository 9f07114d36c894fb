-- rel_improve_evict_failing (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
SELECT
  COUNT(*) AS failing
FROM improve_evict_judged
WHERE
  homeless > 0 OR gain <= 1e-9;
