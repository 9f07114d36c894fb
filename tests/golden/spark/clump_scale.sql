-- clump_scale (sql/clump.sql) as Spark SQL; $name parameters left unbound
SELECT
  MAX(leaf_count) - 1 AS scale
FROM node;
