-- dis_no_joints (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS dis_joint;

CREATE TABLE dis_joint (
  joint INT,
  cluster INT
)
USING PARQUET;
