-- horpart_children_from_lists (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS horpart_children;

CREATE TABLE horpart_children
USING PARQUET AS
SELECT
  CAST(part AS INT) AS part,
  CAST(rank AS INT) AS rank
FROM (
  SELECT
    EXPLODE(CAST($part AS ARRAY<INT>)) AS part,
    EXPLODE(CAST($rank AS ARRAY<INT>)) AS rank
);
