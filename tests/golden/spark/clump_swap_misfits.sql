-- clump_swap_misfits (sql/clump.sql) as Spark SQL; $name parameters left unbound
WITH kept AS (
  SELECT
    l.cluster,
    l.out,
    SUM(l.w * l.c) AS gain
  FROM clump_swap_loo AS l
  SEMI JOIN clump_dirty AS d
    ON d.cluster = l.cluster
  GROUP BY
    l.cluster,
    l.out
)
INSERT INTO clump_swap_misfit
SELECT
  cluster,
  tid,
  len
FROM (
  SELECT
    m.cluster,
    m.tid,
    m.len,
    ROW_NUMBER() OVER (
      PARTITION BY m.cluster
      ORDER BY c.cost - (
        c.items - m.len
      ) * $scale + (
        c.size - 1
      ) * COALESCE(k.gain, 0) DESC, m.tid NULLS LAST
    ) AS _w
  FROM clump_swap_member AS m
  SEMI JOIN clump_dirty AS d
    ON d.cluster = m.cluster
  JOIN clump_swap_cost AS c
    ON c.cluster = m.cluster
  LEFT JOIN kept AS k
    ON k.cluster = m.cluster AND k.out = m.tid
) AS _t
WHERE
  _w <= $outs;
