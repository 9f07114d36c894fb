-- verpart_units_of_clusters (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS verpart_occurrence;

CREATE TABLE verpart_occurrence
USING PARQUET AS
SELECT
  m.cluster AS unit,
  t.tid,
  t.item
FROM cluster_members AS m
JOIN dis_tx AS t
  ON t.tid = m.tid
ANTI JOIN dis_suppressed AS x
  ON x.tid = t.tid AND x.item = t.item;
