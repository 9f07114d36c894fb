-- table_fingerprint (sql/table_dataset.sql) as Spark SQL; $name parameters left unbound
SELECT
  COUNT(*) AS rows,
  SUM(CAST(HASH(t.rowid, t) AS BIGINT)) AS hash_sum,
  BIT_XOR(HASH(t.rowid, t)) AS hash_xor
FROM rel_raw AS t;
