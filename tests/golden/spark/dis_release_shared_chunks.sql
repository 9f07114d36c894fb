-- dis_release_shared_chunks (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS shared_chunks;

CREATE TABLE shared_chunks
USING PARQUET AS
WITH occurrence AS (
  SELECT
    j.joint,
    s.chunk,
    m.tid,
    t.item
  FROM dis_joint AS j
  JOIN cluster_members AS m
    ON m.cluster = j.cluster
  JOIN dis_tx AS t
    ON t.tid = m.tid
  JOIN dis_shared AS s
    ON s.joint = j.joint AND s.item = t.item
  ANTI JOIN dis_suppressed AS x
    ON x.tid = t.tid AND x.item = t.item
), numbered AS (
  SELECT
    joint,
    chunk,
    tid,
    CAST(ROW_NUMBER() OVER (
      PARTITION BY joint, chunk
      ORDER BY SHA2(CONCAT_WS('/', $key, 'shared', joint, chunk, tid), 256) NULLS LAST
    ) AS INT) AS `row`
  FROM (
    SELECT DISTINCT
      joint,
      chunk,
      tid
    FROM occurrence
  )
)
SELECT
  o.joint,
  o.chunk,
  n.`row`,
  i.label AS item
FROM occurrence AS o
JOIN numbered AS n
  ON n.joint = o.joint AND n.chunk = o.chunk AND n.tid = o.tid
JOIN dis_item AS i
  ON i.item = o.item
ORDER BY
  o.joint NULLS LAST,
  o.chunk NULLS LAST,
  n.`row` NULLS LAST,
  o.item NULLS LAST;
