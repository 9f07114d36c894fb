-- rt_cuts_merge_pool (sql/rt_cuts.sql) as Spark SQL; $name parameters left unbound
UPDATE rt_part SET part = $into
WHERE
  part = $pool;
