-- de_probe_places (sql/evaluate_disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS de_probe_places;

CREATE TABLE de_probe_places
USING PARQUET AS
WITH items AS (
  SELECT
    workload,
    size,
    qid,
    EXPLODE(itemset) AS item
  FROM eval_probes
), placed AS (
  SELECT
    i.workload,
    i.size,
    i.qid,
    p.*
  FROM items AS i
  JOIN de_places AS p
    ON p.item = i.item
), complete AS (
  SELECT
    workload,
    size,
    qid,
    cluster
  FROM placed
  GROUP BY
    workload,
    size,
    qid,
    cluster
  HAVING
    COUNT(*) = ANY_VALUE(size) IGNORE NULLS
)
SELECT
  p.*
FROM placed AS p
SEMI JOIN complete AS c
  ON c.workload = p.workload
  AND c.size = p.size
  AND c.qid = p.qid
  AND c.cluster = p.cluster;
