-- release_from_labels (sql/verify.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS release;

CREATE TABLE release
USING PARQUET AS
SELECT
  t.tid,
  n.id AS node
FROM release_source AS s
JOIN tids AS t
  ON CAST(t.label AS STRING) = s.tid_label
JOIN node AS n
  ON n.label = s.label;
