-- rt_subtree_records (sql/rt_topdown.sql) as Spark SQL; $name parameters left unbound
SELECT
  c.cluster,
  n.id AS node,
  COUNT(DISTINCT t.rid) AS records
FROM rt_tx AS t
JOIN cluster AS c
  ON c.rid = t.rid
JOIN rt_node AS n
  ON t.item BETWEEN n.id AND n.last
GROUP BY
  c.cluster,
  n.id
HAVING
  COUNT(DISTINCT t.rid) >= $k
ORDER BY
  c.cluster NULLS LAST,
  n.id NULLS LAST;
