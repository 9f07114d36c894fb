-- instance_match_start (sql/instance_loss.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS instance_match;

CREATE TABLE instance_match (
  tid BIGINT,
  node INT,
  parent INT,
  depth INT,
  ncp DOUBLE,
  lm DOUBLE,
  matched BIGINT,
  below BIGINT
)
USING PARQUET;
