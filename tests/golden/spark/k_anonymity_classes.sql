-- k_anonymity_classes (sql/verify.sql, its :spark variant) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS release_classes;

CREATE TABLE release_classes
USING PARQUET AS
WITH per_tx AS (
  SELECT
    t.tid,
    ARRAY_SORT(COLLECT_LIST(r.node)) AS itemset
  FROM tids AS t
  LEFT JOIN release AS r
    ON r.tid = t.tid
  GROUP BY
    t.tid
)
SELECT
  itemset,
  COUNT(*) AS support
FROM per_tx
GROUP BY
  itemset
ORDER BY
  support NULLS LAST,
  itemset NULLS LAST;
