-- clump_candidate_costs (sql/clump.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS clump_candidates;

CREATE TABLE clump_candidates
USING PARQUET AS
SELECT
  cluster,
  tid,
  delta
FROM (
  WITH pair_node AS MATERIALIZED (
    /* every pair with the nodes its cluster has items under (materialized: joining the counts */
    /* on node alone first would pair every cluster with every transaction) */
    SELECT
      p.cluster,
      p.tid,
      cc.node,
      cc.c
    FROM clump_pool AS p
    JOIN cluster_count AS cc
      ON cc.cluster = p.cluster
  ), joined AS (
    SELECT
      pn.cluster,
      pn.tid,
      SUM(LEAST(pn.c, tc.cnt) * tc.w) AS gain
    FROM pair_node AS pn
    JOIN tx_count AS tc
      ON tc.tid = pn.tid AND tc.node = pn.node
    GROUP BY
      pn.cluster,
      pn.tid
  )
  SELECT
    j.cluster,
    j.tid,
    (
      s.items + f.len
    ) * $scale - (
      s.size + 1
    ) * j.gain - (
      s.items * $scale - s.size * s.gain
    ) AS delta,
    ROW_NUMBER() OVER (
      PARTITION BY j.cluster
      ORDER BY (
        s.items + f.len
      ) * $scale - (
        s.size + 1
      ) * j.gain - (
        s.items * $scale - s.size * s.gain
      ) NULLS LAST, j.tid NULLS LAST
    ) AS _w
  FROM joined AS j
  JOIN clump_cluster AS s
    ON s.cluster = j.cluster
  JOIN clump_free AS f
    ON f.tid = j.tid
) AS _t
WHERE
  _w <= $keep;
