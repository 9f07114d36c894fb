-- partition_tail_steps (sql/partition.sql) as Spark SQL; $name parameters left unbound
SELECT
  s.item,
  s.node,
  s.child,
  s.rank,
  s.bit,
  s.gain_units
FROM partition_expand_step AS s
SEMI JOIN (
  SELECT
    t.item
  FROM tx AS t
  SEMI JOIN partition_bucket AS b
    ON b.tid = t.tid
) AS i
  ON i.item = s.item;
