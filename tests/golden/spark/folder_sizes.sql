-- folder_sizes (sql/release_folder.sql) as Spark SQL; $name parameters left unbound
INSERT INTO dv_violations
SELECT
  'cluster of fewer than k records',
  cluster,
  CAST(size AS STRING)
FROM clusters
WHERE
  size < $k
UNION ALL
SELECT
  'cluster sizes do not sum to the transactions',
  NULL,
  CAST(SUM(size) AS STRING) || ' of ' || CAST((
    SELECT
      COUNT(*)
    FROM tids
  ) AS STRING)
FROM clusters
HAVING
  SUM(size) IS DISTINCT FROM (
    SELECT
      COUNT(*)
    FROM tids
  )
UNION ALL
SELECT
  'chunk with more rows than its cluster has records',
  r.unit,
  r.kind || ' chunk ' || CAST(r.chunk AS STRING)
FROM (
  SELECT
    kind,
    unit,
    chunk,
    COUNT(DISTINCT `row`) AS rows
  FROM dv_rows
  GROUP BY ALL
) AS r
LEFT JOIN (
  SELECT
    'record' AS kind,
    cluster AS unit,
    size
  FROM clusters
  UNION ALL
  SELECT
    'shared',
    j.joint,
    SUM(c.size)
  FROM joint_clusters AS j
  JOIN clusters AS c
    USING (cluster)
  GROUP BY
    j.joint
) AS s
  ON s.kind = r.kind AND s.unit = r.unit
WHERE
  r.rows > COALESCE(s.size, 0)
UNION ALL
SELECT
  'records left empty by the release',
  c.cluster,
  CAST(c.size AS STRING)
FROM clusters AS c
LEFT JOIN (
  SELECT
    unit,
    COUNT(DISTINCT (chunk, `row`)) AS rows
  FROM dv_rows
  WHERE
    kind = 'record'
  GROUP BY
    unit
) AS r
  ON r.unit = c.cluster
LEFT JOIN (
  SELECT
    cluster,
    COUNT(*) AS terms
  FROM term_chunks
  GROUP BY
    cluster
) AS t
  ON t.cluster = c.cluster
LEFT JOIN joint_clusters AS j
  ON j.cluster = c.cluster
LEFT JOIN (
  SELECT
    unit,
    COUNT(DISTINCT (chunk, `row`)) AS rows
  FROM dv_rows
  WHERE
    kind = 'shared'
  GROUP BY
    unit
) AS s
  ON s.unit = j.joint
WHERE
  c.size > COALESCE(r.rows, 0) + COALESCE(t.terms, 0) * LEAST(c.size, $k - 1) + COALESCE(s.rows, 0);
