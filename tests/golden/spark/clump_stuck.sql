-- clump_stuck (sql/clump.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS clump_stuck;

CREATE TABLE clump_stuck
USING PARQUET AS
SELECT
  s.cluster
FROM clump_cluster AS s
ANTI JOIN clump_candidates AS c
  ON c.cluster = s.cluster
WHERE
  s.size < $k
ORDER BY
  s.cluster NULLS LAST;
