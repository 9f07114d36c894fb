-- rel_advance_frontier (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
DROP TABLE frontier;

DROP TABLE frontier_member;

DROP TABLE IF EXISTS frontier;

CREATE TABLE frontier
USING PARQUET AS
SELECT
  rec,
  node,
  depth,
  support,
  cost
FROM next_frontier;

ALTER TABLE next_member
RENAME TO frontier_member;
