-- km_split_expanded (sql/km_anonymity.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS split_expanded;

CREATE TABLE split_expanded
USING PARQUET AS
WITH touched AS (
  SELECT DISTINCT
    e.tid
  FROM expanded AS e
  JOIN split_node AS s
    ON s.node = e.node AND s.is_child
)
SELECT
  e.tid,
  e.node,
  e.last
FROM expanded AS e
JOIN split_node AS s
  ON s.node = e.node
SEMI JOIN touched AS t
  ON t.tid = e.tid
ORDER BY
  e.tid NULLS LAST,
  e.node NULLS LAST;
