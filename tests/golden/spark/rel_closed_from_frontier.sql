-- rel_closed_from_frontier (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
INSERT INTO closed_record
SELECT
  f.rec,
  f.node,
  f.support,
  $level AS level
FROM frontier AS f
ANTI JOIN (
  SELECT
    rec
  FROM narrowing
  WHERE
    same
) AS s
  ON s.rec = f.rec;
