-- release_file_columns_csv (sql/verify.sql) as Spark SQL; $name parameters left unbound
DESCRIBE SELECT
  *
FROM READ_CSV($path, header = TRUE, all_varchar = TRUE);
