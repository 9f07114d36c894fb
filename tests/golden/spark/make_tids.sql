-- make_tids (sql/encode.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS tids;

CREATE TABLE tids
USING PARQUET AS
SELECT
  CAST(DENSE_RANK() OVER (
    ORDER BY TRY_CAST(tid_label AS DOUBLE) NULLS LAST, CAST(tid_label AS STRING) NULLS LAST
  ) - 1 AS BIGINT) AS tid,
  tid_label AS label
FROM (
  SELECT DISTINCT
    tid_label
  FROM source_distinct
)
ORDER BY
  tid NULLS LAST;
