-- clump_apply_swaps (sql/clump.sql) as Spark SQL; $name parameters left unbound
UPDATE cluster_of SET cluster = moved.cluster
FROM (
  SELECT
    x AS tid,
    b AS cluster
  FROM clump_swap
  WHERE
    NOT x IS NULL
  UNION ALL
  SELECT
    y,
    a
  FROM clump_swap
  WHERE
    NOT y IS NULL
) AS moved
WHERE
  cluster_of.tid = moved.tid;
