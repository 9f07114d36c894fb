-- verpart_units_of_joints (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS verpart_occurrence;

CREATE TABLE verpart_occurrence
USING PARQUET AS
WITH occurrence AS (
  SELECT
    j.joint AS unit,
    m.cluster,
    t.tid,
    t.item
  FROM dis_joint AS j
  JOIN cluster_members AS m
    ON m.cluster = j.cluster
  JOIN dis_tx AS t
    ON t.tid = m.tid
  ANTI JOIN dis_suppressed AS x
    ON x.tid = t.tid AND x.item = t.item
), chunked AS (
  SELECT DISTINCT
    o.unit,
    o.item
  FROM occurrence AS o
  JOIN dis_chunk AS c
    ON c.cluster = o.cluster AND c.item = o.item
)
SELECT
  o.unit,
  o.tid,
  o.item
FROM occurrence AS o
ANTI JOIN chunked AS c
  ON c.unit = o.unit AND c.item = o.item;
