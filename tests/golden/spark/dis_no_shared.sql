-- dis_no_shared (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS dis_shared;

CREATE TABLE dis_shared (
  joint INT,
  chunk INT,
  item INT
)
USING PARQUET;
