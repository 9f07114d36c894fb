-- clump_round_start (sql/clump.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS clump_round;

CREATE TABLE clump_round (
  cluster INT,
  tid BIGINT,
  delta BIGINT
)
USING PARQUET;
