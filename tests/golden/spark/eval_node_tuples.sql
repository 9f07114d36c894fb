-- eval_node_tuples (sql/evaluate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_node_tuples;

CREATE TABLE eval_node_tuples
USING PARQUET AS
WITH RECURSIVE tuples(cls, nodes, weight, size) AS (
  SELECT
    cls,
    ARRAY(node),
    weight,
    1
  FROM eval_class_nodes
  UNION ALL
  SELECT
    t.cls,
    ARRAY_APPEND(COALESCE(t.nodes, ARRAY()), f.node),
    t.weight * f.weight,
    t.size + 1
  FROM tuples AS t
  JOIN eval_class_nodes AS f
    ON f.cls = t.cls AND f.node >= t.nodes[-2]
  WHERE
    t.size < $max_size
)
SELECT
  t.nodes,
  SUM(k.support * t.weight) AS estimate,
  SUM(k.support) AS candidates
FROM tuples AS t
JOIN eval_classes AS k
  ON k.cls = t.cls
GROUP BY
  t.nodes;
