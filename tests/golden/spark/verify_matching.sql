-- verify_matching (sql/verify.sql) as Spark SQL; $name parameters left unbound
WITH released AS (
  SELECT
    r.tid,
    c.ancestor AS node,
    COUNT(*) AS copies
  FROM release AS r
  JOIN closure AS c
    ON c.node = r.node
  GROUP BY
    r.tid,
    c.ancestor
), original AS (
  SELECT
    t.tid,
    c.ancestor AS node,
    COUNT(*) AS items
  FROM tx AS t
  JOIN closure AS c
    ON c.node = t.item
  GROUP BY
    t.tid,
    c.ancestor
)
SELECT
  r.tid,
  r.node,
  'more released copies than original items under this node' AS problem
FROM released AS r
LEFT JOIN original AS o
  USING (tid, node)
WHERE
  r.copies > COALESCE(o.items, 0)
ORDER BY
  r.tid NULLS LAST,
  r.node NULLS LAST;
