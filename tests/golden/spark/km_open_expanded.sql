-- km_open_expanded (sql/km_anonymity.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS open_expanded;

CREATE TABLE open_expanded
USING PARQUET AS
SELECT
  e.tid,
  e.node,
  e.last
FROM expanded AS e
SEMI JOIN (
  SELECT DISTINCT
    a.ancestor AS node
  FROM cut_node AS c
  JOIN closure AS a
    ON a.node = c.node
) AS o
  ON o.node = e.node
ORDER BY
  e.node NULLS LAST,
  e.tid NULLS LAST;
