-- horpart_advance (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS horpart_active;

CREATE TABLE horpart_active
USING PARQUET AS
SELECT
  tid,
  part
FROM horpart_next
WHERE
  NOT final;
