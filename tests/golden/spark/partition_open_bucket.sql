-- partition_open_bucket (sql/partition.sql) as Spark SQL; $name parameters left unbound
WITH opened AS (
  SELECT
    s.tid,
    s.new_pid,
    e.child AS expanded,
    n.rank,
    n.bit,
    n.child,
    n.gain_units
  FROM partition_split AS s
  JOIN tx AS t
    ON t.tid = s.tid
  JOIN partition_expand_step AS e
    ON e.item = t.item AND e.node = s.expanded
  JOIN partition_expand_step AS n
    ON n.step = e.next_step
  WHERE
    NOT s.new_pid IS NULL
), wide AS (
  /* grandchildren of rank >= 64 in a join of their own (see partition_start_bucket) */
  SELECT
    s.tid,
    e.child AS expanded,
    ARRAY_SORT(ARRAY_COMPACT(ARRAY_DISTINCT(COLLECT_LIST(n.child)))) AS wide
  FROM partition_split AS s
  JOIN tx AS t
    ON t.tid = s.tid
  JOIN partition_expand_step AS e
    ON e.item = t.item AND e.node = s.expanded
  JOIN partition_expand_step AS n
    ON n.step = e.next_step AND n.rank >= 64
  WHERE
    $wide AND NOT s.new_pid IS NULL
  GROUP BY
    s.tid,
    e.child
)
INSERT INTO partition_bucket
SELECT
  o.tid,
  o.new_pid,
  o.expanded,
  CAST(o.mask AS BIGINT),
  w.wide,
  o.tx_gain
FROM (
  SELECT
    tid,
    new_pid,
    expanded,
    BIT_OR(bit) AS mask,
    CAST(SUM(gain_units) AS BIGINT) AS tx_gain
  FROM opened
  GROUP BY
    tid,
    new_pid,
    expanded
) AS o
LEFT JOIN wide AS w
  ON w.tid = o.tid AND w.expanded = o.expanded;
