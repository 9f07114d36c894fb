-- rel_improve_split_choice (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS split_choice;

CREATE TABLE split_choice
USING PARQUET AS
WITH spans AS (
  SELECT
    o.cluster,
    o.j,
    o.p,
    o.n,
    o.key,
    o.head_top,
    o.tail_top,
    l.attr AS i,
    MIN(l.leaf) OVER head AS lo_l,
    MAX(l.leaf) OVER head AS hi_l,
    MIN(l.leaf) OVER tail AS lo_r,
    MAX(l.leaf) OVER tail AS hi_r,
    LEAD(o.key) OVER (PARTITION BY o.cluster, o.j, l.attr ORDER BY o.p NULLS LAST) AS next_key
  FROM split_order AS o
  JOIN improve_leaf AS l
    USING (rid)
  WINDOW head AS (
    PARTITION BY o.cluster, o.j, l.attr
    ORDER BY o.p NULLS LAST
    ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
  ), tail AS (
    PARTITION BY o.cluster, o.j, l.attr
    ORDER BY o.p NULLS LAST
    ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING
  )
), cuts AS (
  SELECT
    *
  FROM spans
  WHERE
    p BETWEEN $k AND n - $k
    AND next_key <> key
    AND (
      $l IS NULL OR (
        p >= $l * head_top AND n - p >= $l * tail_top
      )
    )
), head_cost AS (
  SELECT
    c.cluster,
    c.j,
    c.p,
    c.i,
    MIN(a.cost) AS cost
  FROM cuts AS c
  JOIN rel_ancestor AS a
    ON a.attr = c.i AND a.leaf = c.lo_l AND a.last >= c.hi_l
  GROUP BY
    c.cluster,
    c.j,
    c.p,
    c.i
), tail_cost AS (
  SELECT
    c.cluster,
    c.j,
    c.p,
    c.i,
    MIN(a.cost) AS cost
  FROM cuts AS c
  JOIN rel_ancestor AS a
    ON a.attr = c.i AND a.leaf = c.lo_r AND a.last >= c.hi_r
  GROUP BY
    c.cluster,
    c.j,
    c.p,
    c.i
), totals AS (
  SELECT
    h.cluster,
    h.j,
    h.p,
    h.p * AVG(h.cost ORDER BY h.i NULLS LAST) + (
      ANY_VALUE(s.size) IGNORE NULLS - h.p
    ) * AVG(t.cost ORDER BY t.i NULLS LAST) AS total
  FROM head_cost AS h
  JOIN tail_cost AS t
    USING (cluster, j, p, i)
  JOIN improve_class AS s
    ON s.cluster = h.cluster
  GROUP BY
    h.cluster,
    h.j,
    h.p
), best AS (
  SELECT
    t.cluster,
    MIN_BY(STRUCT(t.j AS j, t.p AS p), (t.total, t.j, t.p)) AS cut,
    MIN(t.total) AS total
  FROM totals AS t
  GROUP BY
    t.cluster
)
SELECT
  b.cluster,
  b.cut.j AS j,
  b.cut.p AS p,
  (
    SELECT
      MAX(cluster)
    FROM work
  ) + ROW_NUMBER() OVER (ORDER BY b.cluster NULLS LAST) AS new_cluster
FROM best AS b
JOIN improve_class AS s
  USING (cluster)
WHERE
  b.total < s.size * s.cost - 1e-9;
