-- fanout_edges (sql/hierarchy_build.sql) as Spark SQL; $name parameters left unbound
SELECT
  c.node AS child,
  p.node AS parent,
  c.label AS child_label,
  p.pos * CAST(POWER($fanout, p.level) AS BIGINT) AS lo,
  LEAST((
    p.pos + 1
  ) * CAST(POWER($fanout, p.level) AS BIGINT), $leaves) - 1 AS hi
FROM fanout_tree AS c
LEFT JOIN fanout_tree AS p
  ON p.level = c.level + 1 AND p.pos = c.pos DIV $fanout
WHERE
  (
    NOT p.node IS NULL AND p.node <> c.node
  )
  OR (
    p.node IS NULL AND c.level = $top
  )
ORDER BY
  p.node IS NULL NULLS LAST,
  p.level NULLS LAST,
  p.pos NULLS LAST,
  c.pos NULLS LAST;
