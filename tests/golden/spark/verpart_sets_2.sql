-- verpart_sets_2 (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS verpart_sets_2;

CREATE TABLE verpart_sets_2
USING PARQUET AS
SELECT
  o1.unit,
  ARRAY(o1.item, o2.item) AS itemset,
  COUNT(*) AS support
FROM verpart_candidate_occurrence AS o1
JOIN verpart_candidate_occurrence AS o2
  ON o2.unit = o1.unit AND o2.tid = o1.tid AND o2.item > o1.item
GROUP BY
  o1.unit,
  o1.item,
  o2.item;
