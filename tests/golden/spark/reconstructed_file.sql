-- reconstructed_file (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
SELECT
  tid,
  item
FROM reconstructed
ORDER BY
  tid NULLS LAST,
  item NULLS LAST;
