-- release_file_shared_chunks (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
SELECT
  joint,
  chunk,
  `row`,
  item
FROM shared_chunks
ORDER BY
  joint NULLS LAST,
  chunk NULLS LAST,
  `row` NULLS LAST,
  item NULLS LAST;
