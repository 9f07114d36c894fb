-- clump_swap_touch (sql/clump.sql) as Spark SQL; $name parameters left unbound
INSERT OR REPLACE INTO clump_touched
SELECT
  a,
  $phase
FROM clump_swap
UNION ALL
SELECT
  b,
  $phase
FROM clump_swap;
