-- clump_segment_read (sql/clump.sql) as Spark SQL; $name parameters left unbound
SELECT
  slot,
  cost
FROM clump_segment;
