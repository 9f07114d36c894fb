-- release_file_columns_parquet (sql/verify.sql) as Spark SQL; $name parameters left unbound
DESCRIBE SELECT
  *
FROM parquet.`$path`;
