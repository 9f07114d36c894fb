-- lgr_apply_moves (sql/lgr.sql) as Spark SQL; $name parameters left unbound
UPDATE partition_of SET pid = m.target
FROM lgr_move AS m
WHERE
  m.tid = partition_of.tid;
