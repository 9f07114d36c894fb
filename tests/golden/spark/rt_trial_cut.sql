-- rt_trial_cut (sql/rt_topdown.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS rt_cut;

CREATE TABLE rt_cut
USING PARQUET AS
SELECT
  x.cluster,
  x.item,
  MAX(s.node) AS node
FROM (
  SELECT DISTINCT
    c.cluster,
    t.item
  FROM rt_tx AS t
  JOIN cluster AS c
    ON c.rid = t.rid
) AS x
JOIN rt_trial AS s
  ON s.cluster = x.cluster
JOIN rt_node AS n
  ON n.id = s.node AND x.item BETWEEN n.id AND n.last
GROUP BY
  x.cluster,
  x.item
ORDER BY
  x.cluster NULLS LAST,
  x.item NULLS LAST;
