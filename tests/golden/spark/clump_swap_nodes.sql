-- clump_swap_nodes (sql/clump.sql) as Spark SQL; $name parameters left unbound
INSERT INTO clump_swap_node
SELECT
  m.cluster,
  tc.node,
  ANY_VALUE(tc.w) IGNORE NULLS AS w,
  COUNT(*) AS present,
  ARRAY_SORT(COLLECT_LIST(tc.cnt)) AS counts
FROM clump_swap_member AS m
JOIN tx_count AS tc
  ON tc.tid = m.tid
SEMI JOIN clump_dirty AS d
  ON d.cluster = m.cluster
WHERE
  tc.w > 0
GROUP BY
  m.cluster,
  tc.node;
