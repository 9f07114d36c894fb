-- lgr_move (sql/lgr.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS lgr_move;

CREATE TABLE lgr_move
USING PARQUET AS
WITH shared AS (
  SELECT
    itemset
  FROM lgr_candidate
  GROUP BY
    itemset
  HAVING
    COUNT(*) >= $k
), viable AS (
  SELECT
    c.tid,
    c.itemset,
    c.cost_units,
    e.pid AS target
  FROM lgr_candidate AS c
  LEFT JOIN lgr_class AS e
    ON e.itemset = c.itemset
  WHERE
    NOT e.pid IS NULL OR c.itemset IN (
      SELECT
        itemset
      FROM shared
    )
), best AS (
  SELECT
    *,
    source,
    saving
  FROM (
    SELECT
      v.*,
      w.pid AS source,
      w.cost_units - v.cost_units AS saving,
      ROW_NUMBER() OVER (
        PARTITION BY v.tid
        ORDER BY v.cost_units NULLS LAST, v.target IS NULL NULLS LAST, v.itemset NULLS LAST, v.target NULLS LAST
      ) AS _w
    FROM viable AS v
    JOIN lgr_cost AS w
      ON w.tid = v.tid AND v.cost_units < w.cost_units
  ) AS _t
  WHERE
    _w = 1
), emptiable AS (
  SELECT
    b.source
  FROM best AS b
  JOIN lgr_class AS s
    ON s.pid = b.source
  WHERE
    NOT b.source IN (
      SELECT
        target
      FROM best
      WHERE
        NOT target IS NULL
    )
  GROUP BY
    b.source
  HAVING
    COUNT(*) = ANY_VALUE(s.size) IGNORE NULLS
    AND COUNT(*) FILTER(WHERE
      b.target IS NULL) = 0
), emptied AS (
  SELECT
    source
  FROM emptiable
  WHERE
    NOT source IN (
      SELECT
        b.source
      FROM best AS b
      JOIN emptiable AS e
        ON e.source = b.target
    )
), released AS (
  SELECT
    *
  FROM (
    SELECT
      b.*,
      ROW_NUMBER() OVER (PARTITION BY b.source ORDER BY b.saving DESC, b.tid NULLS LAST) AS _w
    FROM best AS b
    JOIN lgr_class AS s
      ON s.pid = b.source
  ) AS _t
  WHERE
    b.source IN (
      SELECT
        source
      FROM emptied
    ) OR _w <= s.size - $k
), grouped AS (
  SELECT
    *,
    COUNT(*) OVER (PARTITION BY itemset) AS joining
  FROM released
)
SELECT
  tid,
  source,
  itemset,
  COALESCE(
    target,
    $next - 1 + DENSE_RANK() OVER (ORDER BY NOT target IS NULL NULLS LAST, itemset NULLS LAST)
  ) AS target,
  target IS NULL AS new_class
FROM grouped
WHERE
  NOT target IS NULL OR joining >= $k;
