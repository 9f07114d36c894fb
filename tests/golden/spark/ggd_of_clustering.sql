-- ggd_of_clustering (sql/clump.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS ggd;

CREATE TABLE ggd
USING PARQUET AS
WITH members AS (
  SELECT
    co.cluster,
    COUNT(DISTINCT co.tid) AS size,
    COUNT(*) AS items
  FROM cluster_of AS co
  JOIN tx AS t
    ON t.tid = co.tid
  GROUP BY
    co.cluster
), released AS (
  SELECT
    l.cluster,
    SUM(l.copies) AS lcg_items,
    SUM(l.copies * n.lm) AS lm_sum
  FROM lcg AS l
  JOIN node AS n
    ON n.id = l.node
  GROUP BY
    l.cluster
)
SELECT
  m.cluster,
  m.size,
  m.items,
  COALESCE(r.lcg_items, 0) AS lcg_items,
  COALESCE(r.lm_sum, 0) AS lm_sum,
  m.items - m.size * COALESCE(r.lcg_items, 0) AS suppressed,
  m.size * COALESCE(r.lm_sum, 0) + m.items - m.size * COALESCE(r.lcg_items, 0) AS ggd
FROM members AS m
LEFT JOIN released AS r
  ON r.cluster = m.cluster
ORDER BY
  m.cluster NULLS LAST;
