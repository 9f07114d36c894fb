-- lgr_class (sql/lgr.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS lgr_class;

CREATE TABLE lgr_class
USING PARQUET AS
WITH size AS (
  SELECT
    pid,
    COUNT(*) AS size
  FROM partition_of
  GROUP BY
    pid
)
SELECT
  c.pid,
  COLLECT_LIST(c.node) AS itemset,
  ANY_VALUE(s.size) IGNORE NULLS AS size
FROM partition_cut AS c
JOIN size AS s
  USING (pid)
GROUP BY
  c.pid;
