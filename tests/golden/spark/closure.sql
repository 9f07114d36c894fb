-- closure (sql/dataset.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS closure;

CREATE TABLE closure
USING PARQUET AS
SELECT
  d.id AS node,
  a.id AS ancestor,
  d.depth - a.depth AS distance
FROM node AS d
JOIN node AS a
  ON d.id BETWEEN a.id AND a.last
ORDER BY
  node NULLS LAST,
  ancestor NULLS LAST;
