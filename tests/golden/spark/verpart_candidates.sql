-- verpart_candidates (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
SELECT
  unit,
  COLLECT_LIST(item) AS items
FROM verpart_frequent
GROUP BY
  unit;
