-- rel_cover_candidates (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
SELECT
  rec,
  node,
  cost,
  support
FROM closed_cost;
