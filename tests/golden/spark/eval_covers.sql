-- eval_covers (sql/evaluate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_covers;

CREATE TABLE eval_covers
USING PARQUET AS
WITH RECURSIVE released AS (
  SELECT DISTINCT
    node
  FROM eval_class_nodes
), probe_items AS (
  SELECT
    workload,
    size,
    qid,
    EXPLODE(itemset) AS item,
    GENERATE_SUBSCRIPTS(itemset, 1) AS pos
  FROM eval_probes
), choices AS (
  SELECT
    p.workload,
    p.size,
    p.qid,
    p.pos,
    a.ancestor AS node
  FROM probe_items AS p
  JOIN closure AS a
    ON a.node = p.item
  SEMI JOIN released AS r
    ON r.node = a.ancestor
), covers(workload, size, qid, pos, nodes) AS (
  SELECT
    workload,
    size,
    qid,
    pos,
    ARRAY(node)
  FROM choices
  WHERE
    pos = 1
  UNION ALL
  SELECT
    c.workload,
    c.size,
    c.qid,
    c.pos,
    ARRAY_APPEND(COALESCE(v.nodes, ARRAY()), c.node)
  FROM covers AS v
  JOIN choices AS c
    ON c.workload = v.workload AND c.size = v.size AND c.qid = v.qid AND c.pos = v.pos + 1
)
SELECT
  workload,
  size,
  qid,
  ARRAY_SORT(nodes) AS nodes
FROM covers
WHERE
  pos = size;
