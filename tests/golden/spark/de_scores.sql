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
)
SELECT
  o.workload,
  o.size,
  o.qid,
  o.cluster,
  v.records AS n,
  COALESCE(a.p, 0) AS p,
  COALESCE(a.q, 0) AS q,
  a.joint,
  v.records * COALESCE(a.share, 1.0) * POWER(LEAST(v.records, $term_support) / v.records, COALESCE(t.n_terms, 0)) AS estimate,
  CASE
    WHEN a.p IS NULL
    THEN v.records
    WHEN a.p = 0 AND a.q = 1
    THEN a.least_rows
    WHEN a.p = 0
    THEN LEAST(a.least_rows, (
      v.shared_rows - v.joint_deficit
    ) DIV (
      a.q - 1
    ))
    ELSE LEAST(
      a.least_rows,
      v.records,
      CASE
        WHEN a.p - 1 + a.q > 0
        THEN (
          v.shared_rows - v.others + v.slack
        ) DIV (
          a.p - 1 + a.q
        )
      END,
      CASE WHEN a.q > 0 THEN (
        v.shared_rows - v.others
      ) DIV a.q END
    )
  END AS candidates
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
  AND t.cluster = o.cluster;
