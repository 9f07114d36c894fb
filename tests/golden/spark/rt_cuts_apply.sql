-- rt_cuts_apply (sql/rt_cuts.sql) as Spark SQL; $name parameters left unbound
UPDATE rt_part AS p SET part = t.new_part
FROM (
  SELECT
    cid,
    EXPLODE(leaf) AS leaf,
    GENERATE_SUBSCRIPTS(leaf, 1) AS attr
  FROM rel_combo
) AS u
JOIN rt_cut_to AS t
  ON t.attr = u.attr AND t.leaf = u.leaf
WHERE
  u.cid = p.cid AND t.part = p.part;
