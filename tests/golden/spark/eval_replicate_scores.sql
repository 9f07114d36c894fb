-- eval_replicate_scores (sql/evaluate_sample.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_replicate_scores;

CREATE TABLE eval_replicate_scores
USING PARQUET AS
WITH reps AS (
  SELECT
    EXPLODE(IF((
      $groups - 1
    ) < -1, ARRAY(), SEQUENCE(-1, (
      $groups - 1
    )))) AS rep
), sampled AS (
  SELECT
    workload,
    size,
    qid,
    SUM(actual) AS actual,
    SUM(estimate) AS estimate,
    SUM(candidates) AS candidates,
    SUM(POWER((
      actual - estimate
    ), 2)) AS squares
  FROM eval_group_scores
  WHERE
    grp < $groups
  GROUP BY
    workload,
    size,
    qid
), kept AS (
  SELECT
    r.rep,
    t.workload,
    t.size,
    t.qid,
    t.actual - COALESCE(g.actual, 0) AS actual,
    t.estimate - COALESCE(g.estimate, 0) AS estimate,
    t.candidates - COALESCE(g.candidates, 0) AS candidates,
    t.squares - COALESCE(POWER((
      g.actual - g.estimate
    ), 2), 0) AS squares,
    CASE WHEN r.rep < 0 THEN $groups ELSE $groups - 1 END AS m,
    CASE WHEN r.rep < 0 THEN $share ELSE $share * (
      $groups - 1
    ) / $groups END AS share
  FROM reps AS r
  CROSS JOIN sampled AS t
  LEFT JOIN eval_group_scores AS g
    ON g.grp = r.rep AND g.workload = t.workload AND g.size = t.size AND g.qid = t.qid
), scaled AS (
  SELECT
    k.rep,
    k.workload,
    k.size,
    k.qid,
    COALESCE(x.actual, 0) + COALESCE(c.actual, 0) + k.actual / k.share AS actual,
    COALESCE(c.estimate, 0) + k.estimate / k.share AS estimate,
    COALESCE(c.candidates, 0) + k.candidates / k.share AS candidates,
    (
      1 - k.share
    ) * (
      k.m * k.squares - POWER((
        k.actual - k.estimate
      ), 2)
    ) / (
      k.m - 1
    ) / POWER(k.share, 2) AS variance
  FROM kept AS k
  LEFT JOIN eval_group_scores AS c
    ON c.grp = $groups AND c.workload = k.workload AND c.size = k.size AND c.qid = k.qid
  LEFT JOIN eval_exact_actuals AS x
    ON x.workload = k.workload AND x.size = k.size AND x.qid = k.qid
)
SELECT
  rep,
  workload,
  size,
  qid,
  actual,
  estimate,
  candidates,
  SQRT(GREATEST(0.0, POWER((
    actual - estimate
  ), 2) - variance)) AS error
FROM scaled;
