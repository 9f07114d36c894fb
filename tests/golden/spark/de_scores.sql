-- de_scores (sql/evaluate_disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS de_cluster_scores;

CREATE TABLE de_cluster_scores
USING PARQUET AS
WITH terms AS (
  SELECT
    workload,
    size,
    qid,
    cluster,
    COUNT(*) AS n_terms
  FROM de_probe_places
  WHERE
    kind = 'term'
  GROUP BY
    workload,
    size,
    qid,
    cluster
), parts AS (
  SELECT
    workload,
    size,
    qid,
    cluster,
    COUNT(*) FILTER(WHERE
      kind = 'record') AS p,
    COUNT(*) FILTER(WHERE
      kind = 'shared') AS q,
    PRODUCT(rows / unit_size) AS share,
    MIN(rows) AS least_rows,
    ANY_VALUE(unit) IGNORE NULLS FILTER(WHERE
      kind = 'shared') AS joint
  FROM de_part_rows
  GROUP BY
    workload,
    size,
    qid,
    cluster
), clusters_of AS (
  SELECT DISTINCT
    workload,
    size,
    qid,
    cluster
  FROM de_probe_places
), scored AS (
  SELECT
    o.workload,
    o.size,
    o.qid,
    o.cluster,
    v.records,
    v.chunk_rows,
    v.term_cover,
    v.shared_rows,
    v.others,
    v.joint_deficit,
    a.p,
    a.q,
    a.joint,
    a.share,
    a.least_rows,
    COALESCE(t.n_terms, 0) AS n_terms,
    v.shared_rows - v.others + v.slack - COALESCE(t.n_terms, 0) AS room
  FROM clusters_of AS o
  JOIN de_cover AS v
    ON v.cluster = o.cluster
  LEFT JOIN parts AS a
    ON a.workload = o.workload
    AND a.size = o.size
    AND a.qid = o.qid
    AND a.cluster = o.cluster
  LEFT JOIN terms AS t
    ON t.workload = o.workload
    AND t.size = o.size
    AND t.qid = o.qid
    AND t.cluster = o.cluster
)
SELECT
  workload,
  size,
  qid,
  cluster,
  records AS n,
  COALESCE(p, 0) AS p,
  COALESCE(q, 0) AS q,
  joint,
  n_terms,
  CASE
    WHEN p IS NULL
    THEN CASE
      WHEN room >= 0
      THEN records
      WHEN room = -1
      THEN LEAST(records, term_cover - n_terms + 1)
      ELSE 0
    END
    WHEN p = 0 AND n_terms = 0 AND q = 1
    THEN least_rows
    WHEN p = 0 AND n_terms = 0
    THEN LEAST(least_rows, (
      shared_rows - joint_deficit
    ) DIV (
      q - 1
    ))
    ELSE LEAST(
      least_rows,
      records,
      CASE WHEN p - 1 + q > 0 THEN room DIV (
        p - 1 + q
      ) WHEN room < 0 THEN 0 END,
      CASE WHEN q > 0 THEN (
        shared_rows - others
      ) DIV q END
    )
  END AS candidates
FROM scored;
