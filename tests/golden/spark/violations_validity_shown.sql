-- violations_validity_shown (sql/verify.sql) as Spark SQL; $name parameters left unbound
SELECT
  t.label AS tid,
  n.label AS node,
  v.problem
FROM violations_validity AS v
LEFT JOIN tids AS t
  ON t.tid = v.tid
LEFT JOIN node AS n
  ON n.id = v.node
ORDER BY
  v.tid NULLS LAST,
  v.node NULLS LAST
LIMIT $n;
