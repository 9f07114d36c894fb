-- partition_start_bucket (sql/partition.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS partition_bucket;

CREATE TABLE partition_bucket
USING PARQUET AS
WITH opened AS (
  SELECT
    t.tid,
    s.node AS expanded,
    s.rank,
    s.bit,
    s.child,
    s.gain_units
  FROM tx AS t
  JOIN node AS r
    ON r.parent IS NULL
  JOIN partition_expand_step AS s
    ON s.item = t.item AND s.node = r.id
), wide AS (
  /* children of rank >= 64 (none below a fan-out of 65) in a join of their own: a list */
  /* aggregate over every bucket would cost memory for lists that are all empty; with no */
  /* such node in the hierarchy ($wide false) the join is not even made */
  SELECT
    t.tid,
    ARRAY_SORT(ARRAY_COMPACT(ARRAY_DISTINCT(COLLECT_LIST(s.child)))) AS wide
  FROM tx AS t
  JOIN node AS r
    ON r.parent IS NULL
  JOIN partition_expand_step AS s
    ON s.item = t.item AND s.node = r.id AND s.rank >= 64
  WHERE
    $wide
  GROUP BY
    t.tid
)
SELECT
  CAST(o.tid AS BIGINT) AS tid,
  CAST(0 AS INT) AS pid,
  o.expanded,
  CAST(o.mask AS BIGINT) AS mask,
  w.wide,
  o.tx_gain
FROM (
  SELECT
    tid,
    expanded,
    BIT_OR(bit) AS mask,
    CAST(SUM(gain_units) AS BIGINT) AS tx_gain
  FROM opened
  GROUP BY
    tid,
    expanded
) AS o
LEFT JOIN wide AS w
  ON w.tid = o.tid;
