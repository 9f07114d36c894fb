-- est_dis_answers (sql/estimate.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS est_answers;

CREATE TABLE est_answers
USING PARQUET AS
SELECT
  q.qid,
  COALESCE(SUM(a.estimate), 0) AS estimate,
  COALESCE(SUM(a.lower), 0) AS lower,
  COALESCE(SUM(a.upper), 0) AS upper
FROM (
  SELECT DISTINCT
    qid
  FROM queries
) AS q
LEFT JOIN est_dis_cluster_answers AS a
  ON a.qid = q.qid
GROUP BY
  q.qid;
