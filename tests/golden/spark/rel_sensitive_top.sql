-- rel_sensitive_top (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
SELECT
  (
    SELECT
      COUNT(*)
    FROM rel_sensitive
  ) AS rows,
  value,
  n
FROM (
  SELECT
    value,
    COUNT(*) AS n
  FROM rel_sensitive
  GROUP BY
    value
  ORDER BY
    n DESC,
    value NULLS LAST
  LIMIT 1
);
