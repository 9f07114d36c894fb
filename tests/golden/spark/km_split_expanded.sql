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
), cut_down AS (
  SELECT
    e.tid,
    e.node,
    e.last,
    s.is_child,
    s.split_of
  FROM expanded AS e
  JOIN split_node AS s
    ON s.node = e.node
  SEMI JOIN touched AS t
    ON t.tid = e.tid
), splittable AS (
  SELECT
    split_of
  FROM (
    SELECT
      node,
      split_of,
      COUNT(*) AS support
    FROM cut_down
    WHERE
      is_child
    GROUP BY
      node,
      split_of
  ) AS c
  GROUP BY
    split_of
  HAVING
    MIN(support) >= $k
)
SELECT
  tid,
  node,
  last,
  is_child,
  NOT is_child OR split_of IN (
    SELECT
      split_of
    FROM splittable
  ) AS open
FROM cut_down
ORDER BY
  tid NULLS LAST,
  node NULLS LAST;
