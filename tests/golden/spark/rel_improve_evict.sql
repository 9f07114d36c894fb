-- rel_improve_evict (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS improve_move;

CREATE TABLE improve_move
USING PARQUET AS
SELECT
  rid,
  cluster AS source,
  target
FROM improve_evict_judged
WHERE
  NOT stays;
