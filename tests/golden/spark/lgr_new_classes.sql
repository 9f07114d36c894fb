-- lgr_new_classes (sql/lgr.sql) as Spark SQL; $name parameters left unbound
SELECT
  COUNT(DISTINCT target) AS classes
FROM lgr_move
WHERE
  new_class;
