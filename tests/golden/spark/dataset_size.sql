-- dataset_size (sql/dataset.sql) as Spark SQL; $name parameters left unbound
SELECT
  (
    SELECT
      COUNT(*)
    FROM tids
  ) AS transactions,
  (
    SELECT
      COUNT(DISTINCT label)
    FROM tx_raw
  ) AS items;
