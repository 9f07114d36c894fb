-- est_dis_items (sql/estimate.sql) as Spark SQL; $name parameters left unbound
SELECT DISTINCT
  item
FROM record_chunks
UNION
SELECT
  item
FROM shared_chunks
UNION
SELECT
  item
FROM term_chunks;
