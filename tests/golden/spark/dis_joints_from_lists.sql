-- dis_joints_from_lists (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS dis_joint;

CREATE TABLE dis_joint
USING PARQUET AS
SELECT
  CAST(joint AS INT) AS joint,
  CAST(cluster AS INT) AS cluster
FROM (
  SELECT
    EXPLODE(CAST($joint AS ARRAY<INT>)) AS joint,
    EXPLODE(CAST($cluster AS ARRAY<INT>)) AS cluster
);
