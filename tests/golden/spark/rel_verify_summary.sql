-- rel_verify_summary (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
SELECT
  (
    SELECT
      COUNT(*)
    FROM violations_table_validity
  ) AS validity_problems,
  (
    SELECT
      COUNT(*)
    FROM table_classes
  ) AS classes,
  (
    SELECT
      COUNT(*)
    FROM violations_table_k
  ) AS failing_k,
  (
    SELECT
      COUNT(*)
    FROM violations_table_l
  ) AS failing_l,
  (
    SELECT
      COUNT(*)
    FROM table_release
  ) AS rows;
