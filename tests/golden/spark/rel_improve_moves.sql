-- rel_improve_moves (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS improve_move;

CREATE TABLE improve_move
USING PARQUET AS
WITH wanted AS (
  SELECT
    w.rid,
    w.cluster AS source,
    o.target,
    s.size,
    ROW_NUMBER() OVER (PARTITION BY w.cluster ORDER BY o.cost NULLS LAST, w.rid NULLS LAST) AS rank
  FROM work AS w
  JOIN rel_value AS v
    USING (rid)
  JOIN improve_cover AS o
    USING (cid)
  JOIN improve_class AS s
    ON s.cluster = w.cluster
  WHERE
    o.target <> w.cluster AND o.cost < s.cost
)
SELECT
  rid,
  source,
  target
FROM wanted
WHERE
  rank <= size - $k;
