-- clump_pool_remainder (sql/clump.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS clump_pool;

CREATE TABLE clump_pool
USING PARQUET AS
WITH reached AS (
  SELECT
    f.tid,
    b.block
  FROM clump_free AS f, EXPLODE(
    IF(
      (
        f.block + $reach + 1 - 1
      ) < f.block - $reach,
      ARRAY(),
      SEQUENCE(f.block - $reach, (
        f.block + $reach + 1 - 1
      ))
    ),
    _u(b)
  )
)
SELECT
  s.cluster,
  r.tid
FROM reached AS r
JOIN clump_cluster AS s
  ON s.cluster = r.block;
