-- dv_sizes (sql/verify_disassociation.sql) as Spark SQL; $name parameters left unbound
INSERT INTO dv_violations
SELECT
  CASE
    WHEN c.cluster IS NULL
    THEN 'cluster not released'
    WHEN m.cluster IS NULL
    THEN 'released cluster has no records'
    WHEN c.size <> m.size
    THEN 'released size is not the cluster\'s'
    ELSE 'cluster of fewer than k records'
  END,
  COALESCE(c.cluster, m.cluster),
  CAST(COALESCE(m.size, 0) AS STRING)
FROM clusters AS c
FULL JOIN (
  SELECT
    cluster,
    COUNT(*) AS size
  FROM cluster_members
  GROUP BY
    cluster
) AS m
  ON m.cluster = c.cluster
WHERE
  c.cluster IS NULL OR m.cluster IS NULL OR c.size <> m.size OR m.size < $k;
