-- release_from_lcg (sql/clump.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS release;

CREATE TABLE release
USING PARQUET AS
SELECT
  co.tid,
  l.node
FROM cluster_of AS co
JOIN lcg AS l
  ON l.cluster = co.cluster, EXPLODE(IF((
  l.copies - 1
) < 0, ARRAY(), SEQUENCE(0, (
  l.copies - 1
))))
ORDER BY
  co.tid NULLS LAST,
  l.node NULLS LAST;
