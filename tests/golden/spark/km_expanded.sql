-- km_expanded (sql/km_anonymity.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS expanded;

CREATE TABLE expanded
USING PARQUET AS
WITH items AS (
  SELECT
    tid,
    item,
    LAG(item) OVER (PARTITION BY tid ORDER BY item NULLS LAST) AS previous
  FROM tx
), pairs AS (
  SELECT
    i.tid,
    c.ancestor AS node
  FROM items AS i
  JOIN closure AS c
    ON c.node = i.item AND (
      i.previous IS NULL OR c.ancestor > i.previous
    )
)
SELECT
  p.tid,
  p.node,
  n.last
FROM pairs AS p
JOIN node AS n
  ON n.id = p.node
ORDER BY
  node NULLS LAST,
  tid NULLS LAST;
