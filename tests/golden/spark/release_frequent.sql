-- release_frequent (sql/verify.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS release_frequent;

CREATE TABLE release_frequent
USING PARQUET AS
SELECT
  s.tid,
  s.node
FROM release_set AS s
SEMI JOIN (
  SELECT
    node
  FROM release_set
  GROUP BY
    node
  HAVING
    COUNT(*) >= $k
) AS f
  USING (node);
