-- dv_chunk_frequent (sql/verify_disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS dv_chunk_frequent;

CREATE TABLE dv_chunk_frequent
USING PARQUET AS
SELECT
  tid,
  node
FROM dv_chunk_rows
WHERE
  node IN (
    SELECT
      node
    FROM dv_chunk_rows
    GROUP BY
      node
    HAVING
      COUNT(*) >= $k
  );
