-- clump_swap_costs (sql/clump.sql) as Spark SQL; $name parameters left unbound
WITH cluster AS (
  SELECT
    m.cluster,
    COUNT(*) AS size,
    SUM(m.len) AS items
  FROM clump_swap_member AS m
  SEMI JOIN clump_dirty AS d
    ON d.cluster = m.cluster
  GROUP BY
    m.cluster
)
INSERT INTO clump_swap_cost
SELECT
  s.cluster,
  s.size,
  s.items,
  s.items * $scale - s.size * COALESCE(SUM(n.w * n.counts[0]), 0) AS cost
FROM cluster AS s
LEFT JOIN clump_swap_node AS n
  ON n.cluster = s.cluster AND n.present = s.size
GROUP BY
  s.cluster,
  s.size,
  s.items;
