-- rt_cuts_counts (sql/rt_cuts.sql) as Spark SQL; $name parameters left unbound
SELECT
  p.part,
  u.attr,
  u.leaf,
  CAST(SUM(u.weight) AS BIGINT) AS rows
FROM rt_part AS p
JOIN rt_part_open AS o
  ON o.part = p.part
JOIN (
  SELECT
    cid,
    weight,
    EXPLODE(leaf) AS leaf,
    GENERATE_SUBSCRIPTS(leaf, 1) AS attr
  FROM rel_combo
) AS u
  ON u.cid = p.cid
GROUP BY
  p.part,
  u.attr,
  u.leaf
ORDER BY
  p.part NULLS LAST,
  u.attr NULLS LAST,
  u.leaf NULLS LAST;
