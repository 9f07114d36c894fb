-- partition_final (sql/partition.sql, its :spark variant) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS partition_final;

CREATE TABLE partition_final
USING PARQUET AS
SELECT
  o.pid,
  COUNT(*) AS size,
  COALESCE(c.cut_size, 0) AS cut_size
FROM partition_of AS o
LEFT JOIN (
  SELECT
    pid,
    COUNT(*) AS cut_size
  FROM partition_cut
  GROUP BY
    pid
) AS c
  ON c.pid = o.pid
GROUP BY
  o.pid,
  c.cut_size
ORDER BY
  o.pid NULLS LAST;
