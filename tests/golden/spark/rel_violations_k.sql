-- rel_violations_k (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS violations_table_k;

CREATE TABLE violations_table_k
USING PARQUET AS
SELECT
  *
FROM table_classes
WHERE
  support < $k
ORDER BY
  support NULLS LAST;
