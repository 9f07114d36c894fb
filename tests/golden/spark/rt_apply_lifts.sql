-- rt_apply_lifts (sql/rt.sql) as Spark SQL; $name parameters left unbound
UPDATE rt_cut AS u SET node = l.node
FROM rt_lift AS l
  JOIN rt_node AS n
    ON n.id = l.node
WHERE
  u.cluster = l.cluster AND u.item BETWEEN l.node AND n.last;
