-- eval_shadow_tids (sql/evaluate_sample.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS tids;

CREATE TABLE tids
USING PARQUET AS
SELECT
  *
  EXCEPT (grp)
FROM eval_sample_tids
WHERE
  $grp IS NULL OR grp = $grp;
