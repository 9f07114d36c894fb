-- rel_mining_level (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS mining_level;

CREATE TABLE mining_level
USING PARQUET AS
SELECT
  EXPLODE($l) AS level,
  EXPLODE($r) AS records,
  EXPLODE($m) AS member_rows;
