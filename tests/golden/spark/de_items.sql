-- de_items (sql/evaluate_disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS de_label;

CREATE TABLE de_label
USING PARQUET AS
SELECT
  item,
  label
FROM dis_item;
