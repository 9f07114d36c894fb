-- make_node (sql/dataset.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS node;

CREATE TABLE node
USING PARQUET AS
SELECT
  CAST(id AS INT) AS id,
  CAST(label AS STRING) AS label,
  CAST(parent AS INT) AS parent,
  CAST(depth AS INT) AS depth,
  CAST(last AS INT) AS last,
  CAST(leaf_count AS INT) AS leaf_count,
  CAST(is_leaf AS BOOLEAN) AS is_leaf,
  CAST(ncp AS DOUBLE) AS ncp,
  CAST(lm AS DOUBLE) AS lm
FROM (
  SELECT
    EXPLODE($id) AS id,
    EXPLODE($label) AS label,
    EXPLODE($parent) AS parent,
    EXPLODE($depth) AS depth,
    EXPLODE($last) AS last,
    EXPLODE($leaf_count) AS leaf_count,
    EXPLODE($is_leaf) AS is_leaf,
    EXPLODE($ncp) AS ncp,
    EXPLODE($lm) AS lm
);
