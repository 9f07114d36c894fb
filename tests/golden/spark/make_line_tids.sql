-- make_line_tids (sql/encode.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS tids;

CREATE TABLE tids
USING PARQUET AS
SELECT
  range AS tid,
  range AS label
FROM EXPLODE(IF((
  $transactions - 1
) < 0, ARRAY(), SEQUENCE(0, (
  $transactions - 1
))));
