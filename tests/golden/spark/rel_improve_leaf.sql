-- rel_improve_leaf (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS improve_leaf;

CREATE TABLE improve_leaf
USING PARQUET AS
SELECT
  v.rid,
  u.attr,
  u.leaf
FROM rel_value AS v
JOIN (
  SELECT
    cid,
    EXPLODE(leaf) AS leaf,
    GENERATE_SUBSCRIPTS(leaf, 1) AS attr
  FROM rel_combo
) AS u
  USING (cid);
