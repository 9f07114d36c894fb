-- clump_choice_growth (sql/clump.sql) as Spark SQL; $name parameters left unbound
WITH room AS (
  SELECT
    s.cluster,
    LEAST($batch, $k - s.size) - COUNT(r.tid) AS room
  FROM clump_cluster AS s
  LEFT JOIN clump_round AS r
    ON r.cluster = s.cluster
  WHERE
    s.size < $k
  GROUP BY
    s.cluster,
    s.size
  HAVING
    room > 0
), won AS (
  SELECT
    cluster,
    tid,
    delta,
    room
  FROM (
    SELECT
      c.cluster,
      c.tid,
      c.delta,
      room.room,
      ROW_NUMBER() OVER (PARTITION BY c.tid ORDER BY c.delta NULLS LAST, c.cluster NULLS LAST) AS _w
    FROM clump_candidates AS c
    JOIN room
      ON room.cluster = c.cluster
    ANTI JOIN clump_round AS r
      ON r.tid = c.tid
  ) AS _t
  WHERE
    _w = 1
)
INSERT INTO clump_round
SELECT
  cluster,
  tid,
  delta
FROM (
  SELECT
    cluster,
    tid,
    delta,
    ROW_NUMBER() OVER (PARTITION BY cluster ORDER BY delta NULLS LAST, tid NULLS LAST) AS _w,
    room
  FROM won
) AS _t
WHERE
  _w <= room;
