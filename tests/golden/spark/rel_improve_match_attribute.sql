-- rel_improve_match_attribute (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
SELECT
  u.attr
FROM (
  SELECT
    EXPLODE(node) AS node,
    GENERATE_SUBSCRIPTS(node, 1) AS attr
  FROM improve_class
) AS u
JOIN improve_node_rows AS r
  ON r.attr = u.attr AND r.node = u.node
GROUP BY
  u.attr
ORDER BY
  SUM(r.rows) NULLS LAST,
  u.attr NULLS LAST
LIMIT 1;
