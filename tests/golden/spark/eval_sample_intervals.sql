-- eval_sample_intervals (sql/evaluate_sample.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_intervals;

CREATE TABLE eval_intervals
USING PARQUET AS
WITH query_figures AS (
  SELECT
    rep,
    workload,
    size,
    AVG(error / actual) AS are,
    AVG(ABS(actual - estimate) / actual) AS are_high,
    AVG(CASE WHEN error / actual > 0.5 + 1e-9 THEN 1.0 ELSE 0.0 END) AS over_50,
    AVG(CASE WHEN ABS(actual - estimate) / actual > 0.5 + 1e-9 THEN 1.0 ELSE 0.0 END) AS over_50_high
  FROM eval_replicate_scores
  WHERE
    workload <> 'attack' AND actual > 0
  GROUP BY
    rep,
    workload,
    size
), long AS (
  UNPIVOT query_figures
  ON are, are_high, over_50, over_50_high
  INTO NAME figure VALUE value
), spread AS (
  SELECT
    workload,
    size,
    figure,
    ANY_VALUE(value) IGNORE NULLS FILTER(WHERE
      rep = -1) AS value,
    $t * SQRT(
      (
        1 - $share
      ) * (
        COUNT(*) FILTER(WHERE
          rep >= 0) - 1
      ) * VAR_POP(value) FILTER(WHERE
        rep >= 0)
    ) AS half
  FROM long
  GROUP BY
    workload,
    size,
    figure
)
SELECT
  f.workload,
  f.size,
  f.figure,
  f.value,
  GREATEST(0.0, f.value - f.half) AS low,
  CASE
    WHEN f.figure = 'are'
    THEN h.value + h.half
    ELSE LEAST(1.0, h.value + h.half)
  END AS high
FROM spread AS f
JOIN spread AS h
  ON h.workload = f.workload AND h.size = f.size AND h.figure = f.figure || '_high'
WHERE
  NOT f.value IS NULL
ORDER BY
  f.workload NULLS LAST,
  f.size NULLS LAST,
  f.figure NULLS LAST;
