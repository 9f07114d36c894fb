-- dv_cover_read (sql/verify_disassociation.sql) as Spark SQL; $name parameters left unbound
SELECT
  cluster,
  size,
  chunk_rows,
  term_cover,
  terms,
  chunks,
  joint,
  shared_rows,
  shared_chunks
FROM dv_cover_shapes
ORDER BY
  cluster NULLS LAST;
