-- information_loss_part (sql/metrics.sql) as Spark SQL; $name parameters left unbound
WITH cover AS (
  SELECT
    t.tid,
    t.item,
    MIN(c.ncp) AS ncp,
    MIN(c.lm) AS lm
  FROM tx AS t
  LEFT JOIN (
    SELECT
      r.tid,
      n.id,
      n.last,
      n.ncp,
      n.lm
    FROM release AS r
    JOIN node AS n
      ON n.id = r.node
    WHERE
      r.tid BETWEEN $lo AND $hi
  ) AS c
    ON c.tid = t.tid AND t.item BETWEEN c.id AND c.last
  WHERE
    t.tid BETWEEN $lo AND $hi
  GROUP BY
    t.tid,
    t.item
)
SELECT
  COUNT(*) AS instances,
  COUNT(ncp) AS covered,
  CAST(COALESCE(SUM(ncp), 0) AS DOUBLE) AS ncp,
  CAST(COALESCE(SUM(lm), 0) AS DOUBLE) AS lm
FROM cover;
