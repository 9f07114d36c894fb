-- eval_frequent_holders (sql/evaluate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_frequent_holders__next;

CREATE TABLE `eval_frequent_holders__next`
USING PARQUET AS
WITH extended AS (
  SELECT
    h.id AS parent,
    h.tid,
    t.item
  FROM eval_frequent_holders AS h
  JOIN eval_frequent_tx AS t
    ON t.tid = h.tid AND t.item > h.last
)
SELECT
  l.id,
  e.tid,
  l.last
FROM extended AS e
JOIN eval_frequent_level AS l
  ON l.parent = e.parent AND l.last = e.item;

DROP TABLE IF EXISTS eval_frequent_holders;

ALTER TABLE eval_frequent_holders__next
RENAME TO eval_frequent_holders;
