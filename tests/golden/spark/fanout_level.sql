-- fanout_level (sql/hierarchy_build.sql) as Spark SQL; $name parameters left unbound
INSERT INTO fanout_tree
SELECT
  $level + 1 AS level,
  pos DIV $fanout AS pos,
  CASE
    WHEN COUNT(*) = 1
    THEN MIN(node)
    ELSE (
      $level + 1
    ) * $leaves + pos DIV $fanout
  END,
  CASE WHEN COUNT(*) = 1 THEN MIN(label) END
FROM fanout_tree
WHERE
  level = $level
GROUP BY
  pos DIV $fanout;
