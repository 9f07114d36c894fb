-- dis_terms (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS dis_term;

CREATE TABLE dis_term
USING PARQUET AS
SELECT DISTINCT
  m.cluster,
  t.item
FROM cluster_members AS m
JOIN dis_tx AS t
  ON t.tid = m.tid
ANTI JOIN dis_suppressed AS x
  ON x.tid = t.tid AND x.item = t.item
ANTI JOIN dis_chunk AS c
  ON c.cluster = m.cluster AND c.item = t.item
ANTI JOIN (
  SELECT
    j.cluster,
    s.item
  FROM dis_joint AS j
  JOIN dis_shared AS s
    ON s.joint = j.joint
) AS s
  ON s.cluster = m.cluster AND s.item = t.item;
