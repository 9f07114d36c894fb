-- eval_frequent_extend (sql/evaluate.sql) as Spark SQL; $name parameters left unbound
WITH frequent_items AS (
  SELECT
    itemset[0] AS item
  FROM eval_frequent
  WHERE
    size = 1
), frequent_tx AS (
  SELECT
    t.tid,
    t.item
  FROM tx AS t
  SEMI JOIN frequent_items AS f
    ON f.item = t.item
), shorter AS (
  SELECT
    itemset,
    EXPLODE(itemset) AS item
  FROM eval_frequent
  WHERE
    size = $size - 1
), holders AS (
  SELECT
    s.itemset,
    f.tid
  FROM shorter AS s
  JOIN frequent_tx AS f
    ON f.item = s.item
  GROUP BY
    s.itemset,
    f.tid
  HAVING
    COUNT(*) = $size - 1
)
INSERT INTO eval_frequent
SELECT
  $size AS size,
  ARRAY_APPEND(COALESCE(h.itemset, ARRAY()), f.item) AS itemset,
  COUNT(*) AS support
FROM holders AS h
JOIN frequent_tx AS f
  ON f.tid = h.tid AND f.item > h.itemset[-2]
GROUP BY
  h.itemset,
  f.item
HAVING
  COUNT(*) >= $minsup;
