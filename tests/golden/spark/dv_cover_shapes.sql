-- dv_cover_shapes (sql/verify_disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS dv_cover_shapes;

CREATE TABLE dv_cover_shapes
USING PARQUET AS
WITH row_counts AS (
  SELECT
    kind,
    unit,
    COUNT(DISTINCT (chunk, `row`)) AS rows,
    COUNT(DISTINCT chunk) AS chunks
  FROM dv_rows
  GROUP BY
    kind,
    unit
), terms AS (
  SELECT
    cluster,
    COUNT(*) AS terms
  FROM term_chunks
  GROUP BY
    cluster
)
SELECT
  c.cluster,
  c.size,
  COALESCE(r.rows, 0) AS chunk_rows,
  COALESCE(t.terms, 0) * LEAST(c.size, $k - 1) AS term_cover,
  COALESCE(t.terms, 0) AS terms,
  COALESCE(r.chunks, 0) AS chunks,
  j.joint,
  COALESCE(s.rows, 0) AS shared_rows,
  COALESCE(s.chunks, 0) AS shared_chunks
FROM clusters AS c
LEFT JOIN row_counts AS r
  ON r.kind = 'record' AND r.unit = c.cluster
LEFT JOIN terms AS t
  ON t.cluster = c.cluster
LEFT JOIN joint_clusters AS j
  ON j.cluster = c.cluster
LEFT JOIN row_counts AS s
  ON s.kind = 'shared' AND s.unit = j.joint
ORDER BY
  c.cluster NULLS LAST;
