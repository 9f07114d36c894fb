-- cover_figures_read (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
SELECT
  cluster,
  size,
  chunk_rows,
  term_cover,
  touches,
  joint,
  shared_rows
FROM cover_figures
ORDER BY
  cluster NULLS LAST;
