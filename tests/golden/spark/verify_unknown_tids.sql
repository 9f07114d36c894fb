-- verify_unknown_tids (sql/verify.sql) as Spark SQL; $name parameters left unbound
SELECT DISTINCT
  r.tid,
  CAST(NULL AS INT) AS node,
  'tid not in the original data' AS problem
FROM release AS r
ANTI JOIN tids AS t
  ON t.tid = r.tid
ORDER BY
  r.tid NULLS LAST;
