-- cover_figures_read (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
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
FROM cover_figures
ORDER BY
  cluster NULLS LAST;
