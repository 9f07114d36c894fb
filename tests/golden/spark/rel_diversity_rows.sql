-- rel_diversity_rows (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
SELECT
  v.rid,
  c.leaf,
  s.value
FROM rel_value AS v
JOIN rel_combo AS c
  USING (cid)
JOIN rel_sensitive AS s
  USING (rid);
