-- lgr_apply_cuts (sql/lgr.sql) as Spark SQL; $name parameters left unbound
INSERT INTO partition_cut
SELECT DISTINCT
  target,
  EXPLODE(itemset) AS node
FROM lgr_move
WHERE
  new_class;
