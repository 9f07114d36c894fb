-- cover_figures (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS cover_figures;

CREATE TABLE cover_figures
USING PARQUET AS
WITH places AS (
  SELECT
    cluster,
    item,
    chunk,
    CAST(NULL AS INT) AS shared
  FROM dis_chunk
  UNION ALL
  SELECT
    j.cluster,
    s.item,
    NULL,
    s.chunk
  FROM dis_joint AS j
  JOIN dis_shared AS s
    ON s.joint = j.joint
), touched AS (
  SELECT
    m.cluster,
    m.tid,
    COUNT(DISTINCT p.chunk) AS chunks,
    COUNT(DISTINCT p.shared) AS shared
  FROM cluster_members AS m
  JOIN dis_tx AS t
    ON t.tid = m.tid
  LEFT JOIN places AS p
    ON p.cluster = m.cluster AND p.item = t.item
  ANTI JOIN dis_suppressed AS x
    ON x.tid = t.tid AND x.item = t.item
  GROUP BY
    m.cluster,
    m.tid
), shapes AS (
  SELECT
    cluster,
    COUNT(*) AS size,
    SUM(chunks) AS chunk_rows,
    SUM(shared) AS shared_rows
  FROM touched
  GROUP BY
    cluster
), terms AS (
  SELECT
    cluster,
    COUNT(*) AS terms
  FROM dis_term
  GROUP BY
    cluster
), chunks AS (
  SELECT
    cluster,
    COUNT(DISTINCT chunk) AS chunks
  FROM dis_chunk
  GROUP BY
    cluster
), shared_chunks AS (
  SELECT
    joint,
    COUNT(DISTINCT chunk) AS chunks
  FROM dis_shared
  GROUP BY
    joint
), joints AS (
  SELECT
    j.joint,
    j.cluster,
    SUM(p.shared_rows) OVER (PARTITION BY j.joint) AS shared_rows
  FROM dis_joint AS j
  JOIN shapes AS p
    ON p.cluster = j.cluster
)
SELECT
  p.cluster,
  p.size,
  p.chunk_rows,
  COALESCE(t.terms, 0) AS terms,
  COALESCE(t.terms, 0) * LEAST(p.size, $k - 1) AS term_cover,
  COALESCE(c.chunks, 0) AS chunks,
  j.joint,
  COALESCE(j.shared_rows, 0) AS shared_rows,
  COALESCE(s.chunks, 0) AS shared_chunks
FROM shapes AS p
LEFT JOIN terms AS t
  ON t.cluster = p.cluster
LEFT JOIN chunks AS c
  ON c.cluster = p.cluster
LEFT JOIN joints AS j
  ON j.cluster = p.cluster
LEFT JOIN shared_chunks AS s
  ON s.joint = j.joint
ORDER BY
  p.cluster NULLS LAST;
