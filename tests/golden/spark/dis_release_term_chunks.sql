-- dis_release_term_chunks (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS term_chunks;

CREATE TABLE term_chunks
USING PARQUET AS
SELECT
  d.cluster,
  i.label AS item
FROM dis_term AS d
JOIN dis_item AS i
  ON i.item = d.item
ORDER BY
  d.cluster NULLS LAST,
  i.label NULLS LAST;
