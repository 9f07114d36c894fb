-- release_file_term_chunks (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
SELECT
  cluster,
  item
FROM term_chunks
ORDER BY
  cluster NULLS LAST,
  item NULLS LAST;
