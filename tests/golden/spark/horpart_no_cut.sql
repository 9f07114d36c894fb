-- horpart_no_cut (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS horpart_cut;

CREATE TABLE horpart_cut (
  tid BIGINT,
  part INT,
  piece INT
)
USING PARQUET;
