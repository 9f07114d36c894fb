-- rt_verify_summary (sql/rt.sql) as Spark SQL; $name parameters left unbound
SELECT
  (
    SELECT
      COUNT(*)
    FROM violations_rt_items
  ) AS item_problems,
  (
    SELECT
      COUNT(*)
    FROM violations_rt_km
  ) AS failing_km;
