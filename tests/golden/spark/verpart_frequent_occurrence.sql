-- verpart_frequent_occurrence (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS verpart_candidate_occurrence;

CREATE TABLE verpart_candidate_occurrence
USING PARQUET AS
SELECT
  o.unit,
  o.tid,
  o.item
FROM verpart_occurrence AS o
SEMI JOIN verpart_frequent AS f
  ON f.unit = o.unit AND f.item = o.item;
