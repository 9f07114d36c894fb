-- de_items_of_hierarchy (sql/evaluate_disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS de_label;

CREATE TABLE de_label
USING PARQUET AS
SELECT
  id AS item,
  label
FROM node
WHERE
  is_leaf;
