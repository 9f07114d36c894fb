-- release_file_record_chunks (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
SELECT
  cluster,
  chunk,
  `row`,
  item
FROM record_chunks
ORDER BY
  cluster NULLS LAST,
  chunk NULLS LAST,
  `row` NULLS LAST,
  item NULLS LAST;
