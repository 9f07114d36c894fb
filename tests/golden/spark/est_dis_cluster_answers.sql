-- est_dis_cluster_answers (sql/estimate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS est_dis_cluster_answers;

CREATE TABLE est_dis_cluster_answers
USING PARQUET AS
WITH per_cluster AS (
  SELECT
    p.qid,
    p.cluster,
    COUNT(*) FILTER(WHERE
      p.kind = 'record') AS p_record,
    COUNT(*) FILTER(WHERE
      p.kind = 'shared') AS p_shared,
    COALESCE(SUM(p.n_items) FILTER(WHERE
      p.kind = 'term'), 0) AS t,
    PRODUCT(p.rows / p.unit_size) FILTER(WHERE
      p.kind <> 'term') AS share,
    MIN(p.rows) FILTER(WHERE
      p.kind = 'record') AS least_record,
    MIN(p.rows) FILTER(WHERE
      p.kind = 'shared') AS least_shared,
    COALESCE(
      SUM(
        CASE
          WHEN p.kind = 'record'
          THEN p.rows
          WHEN p.kind = 'shared'
          THEN GREATEST(0, p.rows - (
            p.unit_size - c.n
          ))
        END
      ),
      0
    ) AS guaranteed,
    ANY_VALUE(p.unit) IGNORE NULLS FILTER(WHERE
      p.kind = 'shared') AS joint,
    ANY_VALUE(p.unit_size) IGNORE NULLS FILTER(WHERE
      p.kind = 'shared') AS joint_size,
    SUM(p.rows) FILTER(WHERE
      p.kind = 'shared') AS sum_shared
  FROM est_dis_parts AS p
  JOIN est_dis_clusters AS c
    ON c.cluster = p.cluster
  GROUP BY
    p.qid,
    p.cluster
), facts AS (
  SELECT
    p.*,
    c.n,
    c.cap,
    c.terms,
    c.term_support,
    c.empty_least
  FROM per_cluster AS p
  JOIN est_dis_clusters AS c
    ON c.cluster = p.cluster
)
SELECT
  qid,
  cluster,
  NULL AS joint,
  n * COALESCE(share, 1.0) * POWER(COALESCE(term_support, 0) / n, t) AS estimate,
  CASE
    WHEN t > 0 AND p_record + p_shared = 0 AND t = 1
    THEN CASE WHEN terms = 1 THEN GREATEST(1, empty_least) ELSE 1 END
    WHEN t > 0
    THEN 0
    ELSE GREATEST(0, guaranteed - (
      p_record + p_shared - 1
    ) * n)
  END AS lower,
  LEAST(
    n,
    COALESCE(least_record, n),
    COALESCE(LEAST(least_shared, n), n),
    CASE WHEN t > 0 THEN cap ELSE n END
  ) AS upper
FROM facts
WHERE
  NOT (
    p_record = 0 AND t = 0
  )
UNION ALL
SELECT
  qid,
  NULL,
  joint,
  ANY_VALUE(joint_size * share) IGNORE NULLS,
  ANY_VALUE(GREATEST(0, sum_shared - (
    p_shared - 1
  ) * joint_size)) IGNORE NULLS,
  ANY_VALUE(least_shared) IGNORE NULLS
FROM facts
WHERE
  p_record = 0 AND t = 0
GROUP BY
  qid,
  joint;
