-- verify_generalizes (sql/verify.sql) as Spark SQL; $name parameters left unbound
SELECT DISTINCT
  r.tid,
  r.node,
  'not a generalization of any original item' AS problem
FROM release AS r
JOIN node AS n
  ON n.id = r.node
ANTI JOIN tx AS t
  ON t.tid = r.tid AND t.item BETWEEN n.id AND n.last
ORDER BY
  r.tid NULLS LAST,
  r.node NULLS LAST;
