-- rt_cuts_pool_rows (sql/rt_cuts.sql) as Spark SQL; $name parameters left unbound
SELECT
  CAST(COALESCE(SUM(c.weight), 0) AS BIGINT) AS rows
FROM rt_part AS p
JOIN rel_combo AS c
  ON c.cid = p.cid
WHERE
  p.part = $pool;
