-- horpart_start_done (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS horpart_done;

CREATE TABLE horpart_done
USING PARQUET AS
SELECT
  t.tid,
  0 AS part
FROM tids AS t
WHERE
  (
    SELECT
      final
    FROM horpart_part
    WHERE
      part = 0
  );
