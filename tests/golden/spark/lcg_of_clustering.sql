-- lcg_of_clustering (sql/clump.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS lcg;

CREATE TABLE lcg
USING PARQUET AS
WITH member_count AS (
  SELECT
    co.cluster,
    co.tid,
    c.ancestor AS node,
    COUNT(*) AS cnt
  FROM cluster_of AS co
  JOIN tx AS t
    ON t.tid = co.tid
  JOIN closure AS c
    ON c.node = t.item
  GROUP BY
    co.cluster,
    co.tid,
    c.ancestor
), cluster_size AS (
  SELECT
    cluster,
    COUNT(*) AS size
  FROM cluster_of
  GROUP BY
    cluster
), common AS (
  /* c(p), kept only where every transaction of the cluster has an item under p */
  SELECT
    m.cluster,
    m.node,
    MIN(m.cnt) AS c
  FROM member_count AS m
  JOIN cluster_size AS s
    ON s.cluster = m.cluster
  GROUP BY
    m.cluster,
    m.node,
    s.size
  HAVING
    COUNT(*) = s.size
), children_total AS (
  SELECT
    q.cluster,
    n.parent AS node,
    SUM(q.c) AS c
  FROM common AS q
  JOIN node AS n
    ON n.id = q.node
  WHERE
    NOT n.parent IS NULL
  GROUP BY
    q.cluster,
    n.parent
)
SELECT
  p.cluster,
  p.node,
  CAST(p.c - COALESCE(ch.c, 0) AS INT) AS copies
FROM common AS p
LEFT JOIN children_total AS ch
  ON ch.cluster = p.cluster AND ch.node = p.node
WHERE
  p.c > COALESCE(ch.c, 0)
ORDER BY
  p.cluster NULLS LAST,
  p.node NULLS LAST;
