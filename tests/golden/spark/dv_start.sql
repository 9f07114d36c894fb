-- dv_start (sql/verify_disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS dv_violations;

CREATE TABLE dv_violations (
  problem STRING,
  unit INT,
  detail STRING
)
USING PARQUET;
