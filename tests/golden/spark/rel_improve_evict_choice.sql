-- rel_improve_evict_choice (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS improve_evict_choice;

CREATE TABLE improve_evict_choice
USING PARQUET AS
SELECT
  cluster,
  MAX_BY(STRUCT(i AS i, child AS child), (ROUND(gain, 9), -i, -child)) AS pick
FROM improve_evict_gain
WHERE
  complete AND gain > 1e-9
GROUP BY
  cluster;
