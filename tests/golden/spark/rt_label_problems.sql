-- rt_label_problems (sql/rt.sql) as Spark SQL; $name parameters left unbound
SELECT
  COUNT(*) FILTER(WHERE
    l.label IS NULL OR l.label = '') AS blank,
  COUNT(*) FILTER(WHERE
    l.label <> '' AND (
      n.id IS NULL OR n.last <> n.id
    )) AS unknown,
  COLLECT_LIST(DISTINCT l.label) FILTER(WHERE
    l.label <> '' AND (
      n.id IS NULL OR n.last <> n.id
    ))[1:5] AS examples
FROM rt_labels AS l
LEFT JOIN rt_node AS n
  ON n.label = l.label;
