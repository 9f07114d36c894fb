-- lgr_ancestor_at (sql/lgr.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS lgr_ancestor_at;

CREATE TABLE lgr_ancestor_at
USING PARQUET AS
SELECT
  c.node,
  d.level,
  a.id AS ancestor,
  CASE WHEN a.is_leaf THEN 0 ELSE a.leaf_count END AS cost_units
FROM closure AS c
JOIN node AS x
  ON x.id = c.node
JOIN node AS a
  ON a.id = c.ancestor
JOIN EXPLODE(
  IF(
    (
      (
        SELECT
          MAX(depth) + 1
        FROM node
      ) - 1
    ) < 0,
    ARRAY(),
    SEQUENCE(0, (
      (
        SELECT
          MAX(depth) + 1
        FROM node
      ) - 1
    ))
  ),
  _u(d)
)
  ON a.depth = LEAST(x.depth, d.level);
