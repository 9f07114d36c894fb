-- verify_covers (sql/verify.sql) as Spark SQL; $name parameters left unbound
SELECT
  t.tid,
  t.item AS node,
  'original item not covered by the release' AS problem
FROM tx AS t
ANTI JOIN (
  SELECT
    r.tid,
    n.id,
    n.last
  FROM release AS r
  JOIN node AS n
    ON n.id = r.node
) AS c
  ON c.tid = t.tid AND t.item BETWEEN c.id AND c.last
ORDER BY
  t.tid NULLS LAST,
  t.item NULLS LAST;
