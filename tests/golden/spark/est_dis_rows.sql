-- est_dis_rows (sql/estimate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS est_dis_rows;

CREATE TABLE est_dis_rows
USING PARQUET AS
SELECT
  'record' AS kind,
  cluster AS unit,
  chunk,
  `row`,
  item
FROM record_chunks
UNION ALL
SELECT
  'shared',
  joint,
  chunk,
  `row`,
  item
FROM shared_chunks;
