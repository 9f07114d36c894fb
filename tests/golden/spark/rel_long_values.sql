-- rel_long_values (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
SELECT
  attr,
  COLLECT_LIST(label) AS labels,
  COLLECT_LIST(n) AS counts
FROM (
  SELECT
    attr,
    label,
    COUNT(*) AS n
  FROM rel_long
  GROUP BY
    attr,
    label
)
GROUP BY
  attr;
