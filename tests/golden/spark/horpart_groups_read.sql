-- horpart_groups_read (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
SELECT
  part,
  rank,
  size
FROM horpart_groups
ORDER BY
  part NULLS LAST,
  rank NULLS LAST;
