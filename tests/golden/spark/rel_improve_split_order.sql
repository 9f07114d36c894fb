-- rel_improve_split_order (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS split_order;

CREATE TABLE split_order
USING PARQUET AS
WITH big AS (
  SELECT
    cluster,
    COUNT(*) AS n
  FROM work
  GROUP BY
    cluster
  HAVING
    COUNT(*) >= 2 * $k
), ordered AS (
  SELECT
    w.cluster,
    l.attr AS j,
    w.rid,
    b.n,
    v.cid AS key,
    s.value,
    ROW_NUMBER() OVER (
      PARTITION BY w.cluster, l.attr
      ORDER BY l.leaf NULLS LAST, v.cid NULLS LAST, w.rid NULLS LAST
    ) AS p
  FROM work AS w
  JOIN big AS b
    USING (cluster)
  JOIN improve_leaf AS l
    USING (rid)
  JOIN rel_value AS v
    USING (rid)
  JOIN improve_value AS s
    USING (rid)
), running AS (
  SELECT
    *,
    COUNT(*) OVER (
      PARTITION BY cluster, j, value
      ORDER BY p NULLS LAST
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS upto,
    COUNT(*) OVER (
      PARTITION BY cluster, j, value
      ORDER BY p NULLS LAST
      ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING
    ) AS from_here
  FROM ordered
)
SELECT
  cluster,
  j,
  rid,
  n,
  key,
  p,
  MAX(upto) OVER (
    PARTITION BY cluster, j
    ORDER BY p NULLS LAST
    ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
  ) AS head_top,
  COALESCE(
    MAX(from_here) OVER (
      PARTITION BY cluster, j
      ORDER BY p NULLS LAST
      ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING
    ),
    0
  ) AS tail_top
FROM running;
