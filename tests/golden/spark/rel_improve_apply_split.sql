-- rel_improve_apply_split (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS work_next;

CREATE TABLE work_next
USING PARQUET AS
SELECT
  w.rid,
  CASE WHEN o.p > s.p THEN s.new_cluster ELSE w.cluster END AS cluster
FROM work AS w
LEFT JOIN split_choice AS s
  USING (cluster)
LEFT JOIN split_order AS o
  ON o.cluster = w.cluster AND o.j = s.j AND o.rid = w.rid;

/* Evictions: a class keeps the rows under one child of its closure node on one attribute (at */ /* least k of them) and sends every other row to the cheapest class (not itself, not evicting) */ /* whose closure already covers it. The kept rows' closure shrinks; the destinations' stays. */;
