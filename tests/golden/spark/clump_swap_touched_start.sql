-- clump_swap_touched_start (sql/clump.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS clump_touched;

CREATE TABLE clump_touched (
  cluster INT PRIMARY KEY,
  phase INT
)
USING PARQUET;
