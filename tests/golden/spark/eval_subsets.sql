-- eval_subsets (sql/evaluate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_subsets;

CREATE TABLE eval_subsets
USING PARQUET AS
WITH sizes AS (
  SELECT
    EXPLODE(CAST($sizes AS ARRAY<INT>)) AS size
), lengths AS (
  SELECT
    tid,
    COUNT(*) AS items
  FROM tx
  GROUP BY
    tid
), ranked AS (
  SELECT
    s.size,
    t.tid,
    t.item,
    ROW_NUMBER() OVER (
      PARTITION BY s.size, t.tid
      ORDER BY HASH(t.tid, t.item, s.size, $seed, $salt) NULLS LAST, t.item NULLS LAST
    ) AS pos
  FROM sizes AS s
  JOIN lengths AS l
    ON l.items >= s.size
  JOIN tx AS t
    ON t.tid = l.tid
)
SELECT
  size,
  tid,
  COLLECT_LIST(item) AS itemset,
  HASH(tid, size, $seed, $salt) AS draw
FROM ranked
WHERE
  pos <= size
GROUP BY
  size,
  tid;
