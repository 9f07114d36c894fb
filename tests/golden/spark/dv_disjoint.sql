-- dv_disjoint (sql/verify_disassociation.sql) as Spark SQL; $name parameters left unbound
INSERT INTO dv_violations
SELECT
  'released label not in the data',
  unit,
  label
FROM dv_rows
WHERE
  item IS NULL
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
  'item in two chunks of a cluster',
  cluster,
  CAST(item AS STRING)
FROM dv_places
WHERE
  NOT item IS NULL
GROUP BY
  cluster,
  item
HAVING
  COUNT(*) > 1
UNION ALL
SELECT
  'cluster in two joint clusters',
  cluster,
  NULL
FROM joint_clusters
GROUP BY
  cluster
HAVING
  COUNT(*) > 1;
