-- rel_cover_rows (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
SELECT
  v.rid,
  c.leaf
FROM rel_value AS v
JOIN rel_combo AS c
  USING (cid)
ORDER BY
  v.rid NULLS LAST;
