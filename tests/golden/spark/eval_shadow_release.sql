-- eval_shadow_release (sql/evaluate_sample.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS release;

CREATE TABLE release
USING PARQUET AS
SELECT
  *
  EXCEPT (grp)
FROM eval_sample_release
WHERE
  $grp IS NULL OR grp = $grp;
