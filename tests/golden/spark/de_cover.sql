-- de_cover (sql/evaluate_disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS de_cover;

CREATE TABLE de_cover
USING PARQUET AS
WITH rows AS (
  SELECT
    cluster,
    COUNT(DISTINCT (chunk, `row`)) AS rows
  FROM record_chunks
  GROUP BY
    cluster
), terms AS (
  SELECT
    cluster,
    COUNT(*) AS terms
  FROM term_chunks
  GROUP BY
    cluster
), base AS (
  SELECT
    c.cluster,
    c.size AS records,
    COALESCE(r.rows, 0) AS chunk_rows,
    COALESCE(t.terms, 0) * LEAST(c.size, $k - 1) AS term_cover,
    j.joint
  FROM clusters AS c
  LEFT JOIN rows AS r
    ON r.cluster = c.cluster
  LEFT JOIN terms AS t
    ON t.cluster = c.cluster
  LEFT JOIN joint_clusters AS j
    ON j.cluster = c.cluster
), deficits AS (
  SELECT
    joint,
    SUM(GREATEST(0, records - chunk_rows - term_cover)) AS deficit
  FROM base
  WHERE
    NOT joint IS NULL
  GROUP BY
    joint
), shared_rows AS (
  SELECT
    joint,
    COUNT(DISTINCT (chunk, `row`)) AS rows
  FROM shared_chunks
  GROUP BY
    joint
)
SELECT
  b.*,
  b.chunk_rows + b.term_cover - b.records AS slack,
  COALESCE(d.deficit, 0) - GREATEST(0, b.records - b.chunk_rows - b.term_cover) AS others,
  COALESCE(d.deficit, 0) AS joint_deficit,
  COALESCE(s.rows, 0) AS shared_rows
FROM base AS b
LEFT JOIN deficits AS d
  ON d.joint = b.joint
LEFT JOIN shared_rows AS s
  ON s.joint = b.joint;
