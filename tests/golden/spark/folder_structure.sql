-- folder_structure (sql/release_folder.sql) as Spark SQL; $name parameters left unbound
INSERT INTO dv_violations
SELECT
  'empty value in a release file',
  cluster,
  CAST(size AS STRING)
FROM clusters
WHERE
  cluster IS NULL OR size IS NULL
UNION ALL
SELECT
  'empty value in a release file',
  cluster,
  item
FROM record_chunks
WHERE
  cluster IS NULL OR chunk IS NULL OR `row` IS NULL OR item IS NULL
UNION ALL
SELECT
  'empty value in a release file',
  cluster,
  item
FROM term_chunks
WHERE
  cluster IS NULL OR item IS NULL
UNION ALL
SELECT
  'empty value in a release file',
  cluster,
  CAST(joint AS STRING)
FROM joint_clusters
WHERE
  joint IS NULL OR cluster IS NULL
UNION ALL
SELECT
  'empty value in a release file',
  joint,
  item
FROM shared_chunks
WHERE
  joint IS NULL OR chunk IS NULL OR `row` IS NULL OR item IS NULL
UNION ALL
SELECT
  'cluster released twice',
  cluster,
  NULL
FROM clusters
GROUP BY
  cluster
HAVING
  COUNT(*) > 1
UNION ALL
SELECT
  'cluster of no record',
  cluster,
  CAST(size AS STRING)
FROM clusters
WHERE
  size < 1
UNION ALL
SELECT
  'chunk of a cluster not released',
  x.cluster,
  NULL
FROM (
  SELECT
    cluster
  FROM record_chunks
  UNION
  SELECT
    cluster
  FROM term_chunks
  UNION
  SELECT
    cluster
  FROM joint_clusters
) AS x
ANTI JOIN clusters AS c
  ON c.cluster = x.cluster
UNION ALL
SELECT
  'shared chunk of a joint cluster not released',
  s.joint,
  NULL
FROM (
  SELECT DISTINCT
    joint
  FROM shared_chunks
) AS s
ANTI JOIN joint_clusters AS j
  ON j.joint = s.joint
UNION ALL
SELECT
  'cluster in two joint clusters',
  cluster,
  NULL
FROM joint_clusters
GROUP BY
  cluster
HAVING
  COUNT(*) > 1
UNION ALL
SELECT
  'released label not in the data',
  unit,
  label
FROM dv_rows
WHERE
  item IS NULL AND NOT label IS NULL
UNION ALL
SELECT
  'released label not in the data',
  t.cluster,
  t.item
FROM term_chunks AS t
ANTI JOIN dv_label AS l
  ON l.label = t.item
UNION ALL
SELECT
  'item repeated in a row',
  unit,
  label
FROM dv_rows
GROUP BY
  kind,
  unit,
  chunk,
  `row`,
  label
HAVING
  COUNT(*) > 1
UNION ALL
SELECT
  'item in two chunks of a cluster',
  cluster,
  item
FROM (
  SELECT DISTINCT
    cluster,
    chunk,
    item
  FROM record_chunks
  UNION ALL
  SELECT
    cluster,
    NULL,
    item
  FROM term_chunks
)
GROUP BY
  cluster,
  item
HAVING
  COUNT(*) > 1;
