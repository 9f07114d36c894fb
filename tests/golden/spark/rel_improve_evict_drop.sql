-- rel_improve_evict_drop (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
DELETE FROM improve_evict_choice
WHERE
  cluster IN (
    SELECT
      cluster
    FROM improve_evict_judged
    WHERE
      homeless > 0 OR gain <= 1e-9
  );
