-- rel_make_value (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS rel_value;

CREATE TABLE rel_value
USING PARQUET AS
SELECT
  r.rid,
  c.cid
FROM rel_row_leaves AS r
JOIN rel_combo AS c
  ON c.leaf = r.leaf
ORDER BY
  r.rid NULLS LAST;
