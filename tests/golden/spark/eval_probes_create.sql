-- eval_probes_create (sql/evaluate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_probes;

CREATE TABLE eval_probes (
  workload STRING,
  size INT,
  qid BIGINT,
  tid BIGINT,
  itemset ARRAY<INT>,
  actual BIGINT
)
USING PARQUET;
