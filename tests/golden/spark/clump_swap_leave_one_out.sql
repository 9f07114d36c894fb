-- clump_swap_leave_one_out (sql/clump.sql) as Spark SQL; $name parameters left unbound
WITH member AS (
  SELECT
    m.cluster,
    m.tid
  FROM clump_swap_member AS m
  SEMI JOIN clump_dirty AS d
    ON d.cluster = m.cluster
), member_count AS (
  /* the dirty members' counts only, so the anti join below need not hash all of tx_count */
  SELECT
    m.tid,
    tc.node,
    tc.cnt
  FROM member AS m
  JOIN tx_count AS tc
    ON tc.tid = m.tid
  WHERE
    tc.w > 0
)
INSERT INTO clump_swap_loo
SELECT
  m.cluster,
  m.tid AS out,
  n.node,
  n.w,
  CASE WHEN tc.cnt = n.counts[0] THEN n.counts[1] ELSE n.counts[0] END AS c
FROM member AS m
JOIN clump_swap_cost AS c
  ON c.cluster = m.cluster
JOIN clump_swap_node AS n
  ON n.cluster = m.cluster AND n.present = c.size
JOIN member_count AS tc
  ON tc.tid = m.tid AND tc.node = n.node
UNION ALL
SELECT
  m.cluster,
  m.tid,
  n.node,
  n.w,
  n.counts[0]
FROM member AS m
JOIN clump_swap_cost AS c
  ON c.cluster = m.cluster
JOIN clump_swap_node AS n
  ON n.cluster = m.cluster AND n.present = c.size - 1
ANTI JOIN member_count AS tc
  ON tc.tid = m.tid AND tc.node = n.node;
