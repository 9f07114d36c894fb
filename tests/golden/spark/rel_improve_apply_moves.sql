-- rel_improve_apply_moves (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS work_next;

CREATE TABLE work_next
USING PARQUET AS
SELECT
  w.rid,
  COALESCE(m.target, w.cluster) AS cluster
FROM work AS w
LEFT JOIN improve_move AS m
  USING (rid);
