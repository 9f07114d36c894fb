-- hierarchy_edges (sql/dataset.sql) as Spark SQL; $name parameters left unbound
SELECT
  c.label AS child,
  p.label AS parent
FROM node AS c
JOIN node AS p
  ON p.id = c.parent
ORDER BY
  c.id NULLS LAST;
