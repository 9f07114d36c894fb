-- eval_sample_tids (sql/evaluate_sample.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_sample_tids;

CREATE TABLE eval_sample_tids
USING PARQUET AS
WITH certain AS (
  SELECT DISTINCT
    tid
  FROM eval_probes
  WHERE
    workload = 'random'
), hashed AS (
  SELECT
    t.*,
    HASH(t.tid, $seed, $salt) AS h,
    NOT c.tid IS NULL AND $salt = 3 AS is_certain
  FROM tids AS t
  LEFT JOIN certain AS c
    ON c.tid = t.tid
)
SELECT
  *
  EXCEPT (h, is_certain),
  CASE
    WHEN is_certain
    THEN $groups
    ELSE CAST((
      (
        h DIV 1000000000
      ) % $groups
    ) AS INT)
  END AS grp
FROM hashed
WHERE
  is_certain OR (
    h % 1000000000
  ) < $share * 1e9;
