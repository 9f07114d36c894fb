-- release_labelled (sql/verify.sql) as Spark SQL; $name parameters left unbound
SELECT
  t.label AS tid,
  n.label AS item
FROM release AS r
JOIN tids AS t
  ON t.tid = r.tid
JOIN node AS n
  ON n.id = r.node
ORDER BY
  r.tid NULLS LAST,
  r.node NULLS LAST;
