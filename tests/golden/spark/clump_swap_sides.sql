-- clump_swap_sides (sql/clump.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS clump_swap_side;

CREATE TABLE clump_swap_side
USING PARQUET AS
WITH pair AS (
  SELECT
    a.cluster AS a,
    b.cluster AS b
  FROM clump_swap_cost AS a
  JOIN clump_swap_cost AS b
    ON b.cluster = a.cluster + $d
  LEFT JOIN clump_touched AS ta
    ON ta.cluster = a.cluster
  LEFT JOIN clump_touched AS tb
    ON tb.cluster = b.cluster
  WHERE
    (
      a.cluster DIV $d
    ) % 2 = $parity
    AND (
      $phase < $period OR GREATEST(ta.phase, tb.phase) >= $phase - $period
    )
)
SELECT
  p.a AS cluster,
  p.b AS partner,
  p.a,
  c.size,
  c.items
FROM pair AS p
JOIN clump_swap_cost AS c
  ON c.cluster = p.a
UNION ALL
SELECT
  p.b,
  p.a,
  p.a,
  c.size,
  c.items
FROM pair AS p
JOIN clump_swap_cost AS c
  ON c.cluster = p.b;
