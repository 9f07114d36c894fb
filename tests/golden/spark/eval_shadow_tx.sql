-- eval_shadow_tx (sql/evaluate_sample.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS tx;

CREATE TABLE tx
USING PARQUET AS
SELECT
  *
  EXCEPT (grp)
FROM eval_sample_tx
WHERE
  $grp IS NULL OR grp = $grp;
