-- clump_no_candidates (sql/clump.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS clump_candidates;

CREATE TABLE clump_candidates (
  cluster INT,
  tid BIGINT,
  delta BIGINT
)
USING PARQUET;
