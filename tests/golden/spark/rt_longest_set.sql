-- rt_longest_set (sql/rt.sql) as Spark SQL; $name parameters left unbound
SELECT
  MAX(n) AS longest
FROM (
  SELECT
    COUNT(*) AS n
  FROM rt_tx
  GROUP BY
    rid
);
