-- partition_retire (sql/partition.sql) as Spark SQL; $name parameters left unbound
INSERT INTO partition_done
SELECT
  s.tid,
  COALESCE(s.new_pid, s.pid)
FROM partition_split AS s
ANTI JOIN (
  SELECT DISTINCT
    pid
  FROM partition_bucket
) AS b
  ON b.pid = COALESCE(s.new_pid, s.pid);
