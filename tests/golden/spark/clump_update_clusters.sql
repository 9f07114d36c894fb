-- clump_update_clusters (sql/clump.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS clump_cluster__next;

CREATE TABLE `clump_cluster__next`
USING PARQUET AS
WITH added AS (
  SELECT
    r.cluster,
    COUNT(*) AS n,
    SUM(f.len) AS len
  FROM clump_round AS r
  JOIN clump_free AS f
    ON f.tid = r.tid
  GROUP BY
    r.cluster
), searched AS (
  SELECT DISTINCT
    cluster
  FROM clump_candidates
), gain AS (
  SELECT
    cluster,
    SUM(c * w) AS gain
  FROM cluster_count
  GROUP BY
    cluster
)
SELECT
  s.cluster,
  CASE
    WHEN s.size < $k AND se.cluster IS NULL
    THEN LEAST(2 * s.reach, $blocks)
    ELSE s.reach
  END AS reach,
  s.size + COALESCE(a.n, 0) AS size,
  CAST(s.items + COALESCE(a.len, 0) AS BIGINT) AS items,
  g.gain
FROM clump_cluster AS s
JOIN gain AS g
  ON g.cluster = s.cluster
LEFT JOIN added AS a
  ON a.cluster = s.cluster
LEFT JOIN searched AS se
  ON se.cluster = s.cluster
ORDER BY
  s.cluster NULLS LAST;

DROP TABLE IF EXISTS clump_cluster;

ALTER TABLE clump_cluster__next
RENAME TO clump_cluster;
