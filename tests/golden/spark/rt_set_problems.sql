-- rt_set_problems (sql/rt.sql) as Spark SQL; $name parameters left unbound
SELECT
  COUNT(*) FILTER(WHERE
    items IS NULL OR LENGTH(items) = 0) AS empty_sets
FROM rt_set;
