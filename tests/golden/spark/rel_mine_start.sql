-- rel_mine_start (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS frontier;

CREATE TABLE frontier
USING PARQUET AS
SELECT
  CAST(0 AS BIGINT) AS rec,
  COLLECT_LIST(0) AS node,
  COLLECT_LIST(0) AS depth,
  CAST((
    SELECT
      SUM(weight)
    FROM rel_combo
  ) AS BIGINT) AS support,
  (
    SELECT
      AVG(cost ORDER BY attr NULLS LAST)
    FROM rel_node
    WHERE
      id = 0
  ) AS cost
FROM rel_attr;
