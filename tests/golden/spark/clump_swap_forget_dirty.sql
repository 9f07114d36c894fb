-- clump_swap_forget_dirty (sql/clump.sql) as Spark SQL; $name parameters left unbound
DELETE FROM clump_swap_member
WHERE
  cluster IN (
    SELECT
      cluster
    FROM clump_dirty
  );

DELETE FROM clump_swap_node
WHERE
  cluster IN (
    SELECT
      cluster
    FROM clump_dirty
  );

DELETE FROM clump_swap_cost
WHERE
  cluster IN (
    SELECT
      cluster
    FROM clump_dirty
  );

DELETE FROM clump_swap_loo
WHERE
  cluster IN (
    SELECT
      cluster
    FROM clump_dirty
  );

DELETE FROM clump_swap_misfit
WHERE
  cluster IN (
    SELECT
      cluster
    FROM clump_dirty
  );
