-- rel_improve_dissolvable_combos (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS improve_combos;

CREATE TABLE improve_combos
USING PARQUET AS
SELECT DISTINCT
  v.cid
FROM work AS w
JOIN improve_dissolvable
  USING (cluster)
JOIN rel_value AS v
  USING (rid);
