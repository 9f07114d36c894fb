-- lgr_fit_none (sql/lgr.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS lgr_fit;

CREATE TABLE lgr_fit (
  tid BIGINT,
  pid BIGINT
)
USING PARQUET;
