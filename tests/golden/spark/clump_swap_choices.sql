-- clump_swap_choices (sql/clump.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS clump_swap;

CREATE TABLE clump_swap
USING PARQUET AS
SELECT
  a,
  b,
  x,
  y,
  delta
FROM (
  WITH exchange AS (
    /* every way a side can change: a misfit out for one of its partner's in (swap), a misfit */
    /* out (move away), or one of its partner's misfits in (move here) */
    SELECT
      s.cluster,
      s.a,
      o.tid AS out,
      i.tid AS inn
    FROM clump_swap_side AS s
    JOIN clump_swap_misfit AS o
      ON o.cluster = s.cluster
    JOIN clump_swap_misfit AS i
      ON i.cluster = s.partner
    UNION ALL
    SELECT
      s.cluster,
      s.a,
      o.tid,
      NULL
    FROM clump_swap_side AS s
    JOIN clump_swap_misfit AS o
      ON o.cluster = s.cluster
    WHERE
      s.size > $k
    UNION ALL
    SELECT
      s.cluster,
      s.a,
      NULL,
      i.tid
    FROM clump_swap_side AS s
    JOIN clump_swap_side AS p
      ON p.cluster = s.partner
    JOIN clump_swap_misfit AS i
      ON i.cluster = s.partner
    WHERE
      p.size > $k
  ), kept AS (
    /* sum of w(p) * c(p) over the changed side: leave-one-out c(p) capped by the newcomer */
    SELECT
      e.cluster,
      e.out,
      e.inn,
      SUM(l.w * LEAST(l.c, tc.cnt)) AS gain
    FROM exchange AS e
    JOIN clump_swap_loo AS l
      ON l.cluster = e.cluster AND l.out = e.out
    JOIN tx_count AS tc
      ON tc.tid = e.inn AND tc.node = l.node
    GROUP BY
      e.cluster,
      e.out,
      e.inn
    UNION ALL
    SELECT
      e.cluster,
      e.out,
      NULL,
      SUM(l.w * l.c)
    FROM exchange AS e
    JOIN clump_swap_loo AS l
      ON l.cluster = e.cluster AND l.out = e.out
    WHERE
      e.inn IS NULL
    GROUP BY
      e.cluster,
      e.out
    UNION ALL
    SELECT
      e.cluster,
      NULL,
      e.inn,
      SUM(n.w * LEAST(n.counts[0], tc.cnt))
    FROM exchange AS e
    JOIN clump_swap_cost AS c
      ON c.cluster = e.cluster
    JOIN clump_swap_node AS n
      ON n.cluster = e.cluster AND n.present = c.size
    JOIN tx_count AS tc
      ON tc.tid = e.inn AND tc.node = n.node
    WHERE
      e.out IS NULL
    GROUP BY
      e.cluster,
      e.inn
  ), change AS (
    /* the change of one side's cost */
    SELECT
      e.a,
      e.out,
      e.inn,
      e.cluster,
      (
        c.items - COALESCE(lo.len, 0) + COALESCE(li.len, 0)
      ) * $scale - (
        c.size - CAST((
          NOT e.out IS NULL
        ) AS INT) + CAST((
          NOT e.inn IS NULL
        ) AS INT)
      ) * COALESCE(k.gain, 0) - c.cost AS delta
    FROM exchange AS e
    JOIN clump_swap_cost AS c
      ON c.cluster = e.cluster
    LEFT JOIN kept AS k
      ON k.cluster = e.cluster
      AND k.out IS NOT DISTINCT FROM e.out
      AND k.inn IS NOT DISTINCT FROM e.inn
    LEFT JOIN clump_swap_misfit AS lo
      ON lo.tid = e.out
    LEFT JOIN clump_swap_misfit AS li
      ON li.tid = e.inn
  )
  /* a pair's exchange seen from side a (x leaves a, y leaves b) and from side b (y out, x in) */
  SELECT
    ca.a,
    cb.cluster AS b,
    ca.out AS x,
    ca.inn AS y,
    ca.delta + cb.delta AS delta,
    ROW_NUMBER() OVER (
      PARTITION BY ca.a
      ORDER BY ca.delta + cb.delta + ca.delta + cb.delta NULLS LAST, ca.out, ca.inn
    ) AS _w
  FROM change AS ca
  JOIN change AS cb
    ON cb.a = ca.a
    AND cb.cluster <> ca.a
    AND cb.out IS NOT DISTINCT FROM ca.inn
    AND cb.inn IS NOT DISTINCT FROM ca.out
  WHERE
    ca.cluster = ca.a AND ca.delta + cb.delta < 0
) AS _t
WHERE
  _w = 1;
