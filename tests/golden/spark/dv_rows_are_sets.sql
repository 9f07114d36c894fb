-- dv_rows_are_sets (sql/verify_disassociation.sql) as Spark SQL; $name parameters left unbound
INSERT INTO dv_violations
SELECT
  'item repeated in a row',
  unit,
  label
FROM dv_rows
GROUP BY
  kind,
  unit,
  chunk,
  `row`,
  label
HAVING
  COUNT(*) > 1;
