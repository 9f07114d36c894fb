-- clump_pool_growth (sql/clump.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS clump_pool;

CREATE TABLE clump_pool
USING PARQUET AS
WITH listed AS (
  SELECT
    c.cluster,
    c.tid
  FROM clump_candidates AS c
  JOIN clump_cluster AS s
    ON s.cluster = c.cluster
  SEMI JOIN clump_free AS f
    ON f.tid = c.tid
  WHERE
    s.size < $k
), refill AS (
  SELECT
    s.cluster,
    b.block
  FROM clump_cluster AS s
  ANTI JOIN listed AS l
    ON l.cluster = s.cluster, EXPLODE(
    IF(
      (
        s.cluster + s.reach + 1 - 1
      ) < s.cluster - s.reach,
      ARRAY(),
      SEQUENCE(s.cluster - s.reach, (
        s.cluster + s.reach + 1 - 1
      ))
    ),
    _u(b)
  )
  WHERE
    s.size < $k
)
SELECT
  cluster,
  tid
FROM listed
UNION ALL
SELECT
  r.cluster,
  f.tid
FROM refill AS r
JOIN clump_free AS f
  ON f.block = r.block;
