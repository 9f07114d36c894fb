-- dv_labels (sql/verify_disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS dv_label;

CREATE TABLE dv_label
USING PARQUET AS
SELECT
  label,
  CAST((
    ROW_NUMBER() OVER (ORDER BY label NULLS LAST)
  ) AS INT) AS id
FROM (
  SELECT DISTINCT
    label
  FROM tx_raw
);
