-- violations_k_shown (sql/verify.sql) as Spark SQL; $name parameters left unbound
WITH v AS (
  SELECT
    ROW_NUMBER() OVER (ORDER BY support NULLS LAST, itemset NULLS LAST) AS rn,
    *
  FROM violations_k
  ORDER BY
    rn NULLS LAST
  LIMIT $n
), u AS (
  SELECT
    rn,
    EXPLODE(itemset) AS id,
    GENERATE_SUBSCRIPTS(itemset, 1) AS pos
  FROM v
)
SELECT
  COALESCE(
    (
      SELECT
        COLLECT_LIST(n.label)
      FROM u
      JOIN node AS n
        ON n.id = u.id
      WHERE
        u.rn = v.rn
    ),
    ARRAY()
  ) AS itemset,
  support
FROM v
ORDER BY
  rn NULLS LAST;
