-- horpart_start_active (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS horpart_active;

CREATE TABLE horpart_active
USING PARQUET AS
SELECT
  t.tid,
  0 AS part
FROM tids AS t
WHERE
  (
    SELECT
      NOT final
    FROM horpart_part
    WHERE
      part = 0
  );
