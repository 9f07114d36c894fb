-- dis_release_record_chunks (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS record_chunks;

CREATE TABLE record_chunks
USING PARQUET AS
WITH occurrence AS (
  SELECT
    m.cluster,
    c.chunk,
    m.tid,
    t.item
  FROM cluster_members AS m
  JOIN dis_tx AS t
    ON t.tid = m.tid
  JOIN dis_chunk AS c
    ON c.cluster = m.cluster AND c.item = t.item
  ANTI JOIN dis_suppressed AS x
    ON x.tid = t.tid AND x.item = t.item
), numbered AS (
  SELECT
    cluster,
    chunk,
    tid,
    CAST(ROW_NUMBER() OVER (
      PARTITION BY cluster, chunk
      ORDER BY SHA2(CONCAT_WS('/', $key, cluster, chunk, tid), 256) NULLS LAST
    ) AS INT) AS `row`
  FROM (
    SELECT DISTINCT
      cluster,
      chunk,
      tid
    FROM occurrence
  )
)
SELECT
  o.cluster,
  o.chunk,
  n.`row`,
  i.label AS item
FROM occurrence AS o
JOIN numbered AS n
  ON n.cluster = o.cluster AND n.chunk = o.chunk AND n.tid = o.tid
JOIN dis_item AS i
  ON i.item = o.item
ORDER BY
  o.cluster NULLS LAST,
  o.chunk NULLS LAST,
  n.`row` NULLS LAST,
  o.item NULLS LAST;
