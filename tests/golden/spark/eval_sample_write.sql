-- eval_sample_write (sql/evaluate_sample.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_sample;

CREATE TABLE eval_sample
USING PARQUET AS
SELECT
  CAST($share AS DOUBLE) AS share,
  CAST($seed AS BIGINT) AS seed,
  CAST($groups AS INT) AS groups,
  (
    SELECT
      COUNT(*)
    FROM eval_sample_tids
  ) AS transactions,
  CAST($of AS BIGINT) AS of_transactions;
