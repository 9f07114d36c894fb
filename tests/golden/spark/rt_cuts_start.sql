-- rt_cuts_start (sql/rt_cuts.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS rt_part;

CREATE TABLE rt_part
USING PARQUET AS
SELECT
  cid,
  0 AS part
FROM rel_combo
ORDER BY
  cid NULLS LAST;
