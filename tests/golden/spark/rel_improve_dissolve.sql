-- rel_improve_dissolve (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS improve_move;

CREATE TABLE improve_move
USING PARQUET AS
WITH wanted AS (
  SELECT
    w.rid,
    w.cluster AS source,
    o.target,
    COUNT(o.target) OVER (PARTITION BY w.cluster) = COUNT(*) OVER (PARTITION BY w.cluster) AS whole
  FROM work AS w
  JOIN improve_dissolvable AS d
    USING (cluster)
  JOIN rel_value AS v
    USING (rid)
  JOIN improve_class AS s
    ON s.cluster = w.cluster
  LEFT JOIN improve_cover_rest AS o
    ON o.cid = v.cid AND o.cost < s.cost
)
SELECT
  rid,
  source,
  target
FROM wanted
WHERE
  whole;
