-- rt_verify_items (sql/rt.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS violations_rt_items;

CREATE TABLE violations_rt_items
USING PARQUET AS
WITH released AS (
  SELECT
    r.rid,
    r.label,
    n.id,
    n.last
  FROM rt_released_labels AS r
  LEFT JOIN rt_node AS n
    ON n.label = r.label
), original AS (
  SELECT
    l.rid,
    l.label,
    n.id
  FROM rt_labels AS l
  JOIN rt_node AS n
    ON n.label = l.label
)
SELECT
  r.rid,
  r.label AS released,
  NULL AS original,
  'released item generalizes none' AS problem
FROM released AS r
WHERE
  r.id IS NULL
  OR NOT EXISTS(
    SELECT
      1
    FROM original AS o
    WHERE
      o.rid = r.rid AND o.id BETWEEN r.id AND r.last
  )
UNION ALL
SELECT
  o.rid,
  NULL,
  o.label,
  'original item not released'
FROM original AS o
WHERE
  NOT EXISTS(
    SELECT
      1
    FROM released AS r
    WHERE
      r.rid = o.rid AND o.id BETWEEN r.id AND r.last
  )
ORDER BY
  rid NULLS LAST;
