-- dis_items (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS dis_item;

CREATE TABLE dis_item
USING PARQUET AS
SELECT
  CAST((
    ROW_NUMBER() OVER (ORDER BY support DESC, label NULLS LAST) - 1
  ) AS INT) AS item,
  label,
  support
FROM (
  SELECT
    label,
    COUNT(*) AS support
  FROM tx_raw
  GROUP BY
    label
);
