-- dis_no_suppression (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS dis_suppressed;

CREATE TABLE dis_suppressed (
  tid BIGINT,
  item INT
)
USING PARQUET;
