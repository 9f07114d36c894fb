-- rel_cluster_labels (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS cluster_labels;

CREATE TABLE cluster_labels
USING PARQUET AS
SELECT
  c.cluster,
  ANY_VALUE(c.size) IGNORE NULLS AS size,
  COLLECT_LIST(n.label) AS labels,
  AVG(n.cost ORDER BY c.attr NULLS LAST) AS cost
FROM cluster_closure AS c
JOIN rel_node AS n
  ON n.attr = c.attr AND n.id = c.node
GROUP BY
  c.cluster
ORDER BY
  c.cluster NULLS LAST;

/* Improvement phase over a k-clustering `work(rid, cluster)`: rows move to cheaper classes that */ /* generalize them, classes of at least 2k rows split in two along one attribute's leaf order. */ /* Neither step breaks k or raises the cost of any row. */;
