-- clump_swap_dirty (sql/clump.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS clump_dirty;

CREATE TABLE clump_dirty
USING PARQUET AS
SELECT
  a AS cluster
FROM clump_swap
UNION ALL
SELECT
  b
FROM clump_swap;
