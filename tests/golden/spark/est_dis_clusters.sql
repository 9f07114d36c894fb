-- est_dis_clusters (sql/estimate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS est_dis_clusters;

CREATE TABLE est_dis_clusters
USING PARQUET AS
WITH joint_size AS (
  SELECT
    j.joint,
    SUM(c.size) AS n
  FROM joint_clusters AS j
  JOIN clusters AS c
    ON c.cluster = j.cluster
  GROUP BY
    j.joint
), chunk_rows AS (
  SELECT
    kind,
    unit,
    chunk,
    COUNT(DISTINCT `row`) AS rows
  FROM est_dis_rows
  GROUP BY ALL
), record AS (
  SELECT
    c.cluster,
    SUM(r.rows) AS rows,
    PRODUCT(1 - r.rows / c.size) AS empty_share
  FROM chunk_rows AS r
  JOIN clusters AS c
    ON c.cluster = r.unit
  WHERE
    r.kind = 'record'
  GROUP BY
    c.cluster
), shared AS (
  SELECT
    r.unit AS joint,
    SUM(r.rows) AS rows,
    PRODUCT(1 - r.rows / z.n) AS empty_share
  FROM chunk_rows AS r
  JOIN joint_size AS z
    ON z.joint = r.unit
  WHERE
    r.kind = 'shared'
  GROUP BY
    r.unit
), terms AS (
  SELECT
    cluster,
    COUNT(DISTINCT item) AS terms
  FROM term_chunks
  GROUP BY
    cluster
), facts AS (
  SELECT
    c.cluster,
    c.size AS n,
    COALESCE(r.rows, 0) AS chunk_rows,
    COALESCE(t.terms, 0) AS terms,
    LEAST(c.size, $k - 1) AS cap,
    COALESCE(s.rows, 0) AS shared_rows,
    GREATEST(0, c.size - COALESCE(r.rows, 0) - LEAST(c.size, COALESCE(s.rows, 0))) AS empty_least,
    c.size * COALESCE(r.empty_share, 1.0) * COALESCE(s.empty_share, 1.0) AS empty_expected
  FROM clusters AS c
  LEFT JOIN record AS r
    ON r.cluster = c.cluster
  LEFT JOIN terms AS t
    ON t.cluster = c.cluster
  LEFT JOIN joint_clusters AS j
    ON j.cluster = c.cluster
  LEFT JOIN shared AS s
    ON s.joint = j.joint
)
SELECT
  *,
  GREATEST(terms, empty_least, empty_expected) AS term_occurrences,
  CASE
    WHEN terms > 0
    THEN LEAST(cap, GREATEST(terms, empty_least, empty_expected) / terms)
  END AS term_support
FROM facts;
