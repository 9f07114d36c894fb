-- dis_shared_from_lists (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS dis_shared;

CREATE TABLE dis_shared
USING PARQUET AS
SELECT
  CAST(joint AS INT) AS joint,
  CAST(chunk AS INT) AS chunk,
  CAST(item AS INT) AS item
FROM (
  SELECT
    EXPLODE(CAST($joint AS ARRAY<INT>)) AS joint,
    EXPLODE(CAST($chunk AS ARRAY<INT>)) AS chunk,
    EXPLODE(CAST($item AS ARRAY<INT>)) AS item
);
