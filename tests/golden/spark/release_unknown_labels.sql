-- release_unknown_labels (sql/verify.sql) as Spark SQL; $name parameters left unbound
(
  SELECT DISTINCT
    'tid' AS kind,
    s.tid_label AS label
  FROM release_source AS s
  ANTI JOIN tids AS t
    ON CAST(t.label AS STRING) = s.tid_label
  ORDER BY
    label NULLS LAST
  LIMIT 5
)
UNION ALL
(
  SELECT DISTINCT
    'item' AS kind,
    s.label
  FROM release_source AS s
  ANTI JOIN node AS n
    ON n.label = s.label
  ORDER BY
    label NULLS LAST
  LIMIT 5
);
