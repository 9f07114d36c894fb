-- km_node_rank (sql/km_anonymity.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS node_rank;

CREATE TABLE node_rank
USING PARQUET AS
SELECT
  id,
  ROW_NUMBER() OVER (ORDER BY leaf_count DESC, id NULLS LAST) AS rank
FROM node;
