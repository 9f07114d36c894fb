-- clump_remove_free (sql/clump.sql) as Spark SQL; $name parameters left unbound
DELETE FROM clump_free
WHERE
  tid IN (
    SELECT
      tid
    FROM clump_round
  );
