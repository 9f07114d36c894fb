-- rel_violations_l (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS violations_table_l;

CREATE TABLE violations_table_l
USING PARQUET AS
SELECT
  *
FROM table_classes
WHERE
  diversity < $l
ORDER BY
  diversity NULLS LAST;
