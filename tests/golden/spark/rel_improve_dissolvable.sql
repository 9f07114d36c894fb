-- rel_improve_dissolvable (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS improve_dissolvable;

CREATE TABLE improve_dissolvable
USING PARQUET AS
SELECT
  w.cluster
FROM work AS w
JOIN rel_value AS v
  USING (rid)
JOIN improve_class AS s
  ON s.cluster = w.cluster
LEFT JOIN improve_cover AS o
  ON o.cid = v.cid AND o.target <> w.cluster AND o.cost < s.cost
GROUP BY
  w.cluster
HAVING
  COUNT(o.target) = COUNT(*);
