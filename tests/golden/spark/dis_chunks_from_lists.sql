-- dis_chunks_from_lists (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS dis_chunk;

CREATE TABLE dis_chunk
USING PARQUET AS
SELECT
  CAST(cluster AS INT) AS cluster,
  CAST(chunk AS INT) AS chunk,
  CAST(item AS INT) AS item
FROM (
  SELECT
    EXPLODE(CAST($cluster AS ARRAY<INT>)) AS cluster,
    EXPLODE(CAST($chunk AS ARRAY<INT>)) AS chunk,
    EXPLODE(CAST($item AS ARRAY<INT>)) AS item
);
