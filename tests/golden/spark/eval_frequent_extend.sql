-- eval_frequent_extend (sql/evaluate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_frequent_level__next;

CREATE TABLE `eval_frequent_level__next`
USING PARQUET AS
SELECT
  id,
  parent,
  itemset,
  last,
  support
FROM (
  WITH counted AS (
    SELECT
      h.id AS parent,
      t.item AS last,
      COUNT(*) AS support
    FROM eval_frequent_holders AS h
    JOIN eval_frequent_tx AS t
      ON t.tid = h.tid AND t.item > h.last
    GROUP BY
      h.id,
      t.item
    HAVING
      COUNT(*) >= $minsup
  ), extended AS (
    SELECT
      c.parent,
      ARRAY_APPEND(COALESCE(p.itemset, ARRAY()), c.last) AS itemset,
      c.last,
      c.support
    FROM counted AS c
    JOIN eval_frequent_level AS p
      ON p.id = c.parent
  )
  SELECT
    ROW_NUMBER() OVER (ORDER BY HASH(itemset, $seed) NULLS LAST, itemset NULLS LAST) AS id,
    parent,
    itemset,
    last,
    support
  FROM extended
) AS _t
WHERE
  id <= $cap;

DROP TABLE IF EXISTS eval_frequent_level;

ALTER TABLE eval_frequent_level__next
RENAME TO eval_frequent_level;
