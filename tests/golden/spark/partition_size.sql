-- partition_size (sql/partition.sql) as Spark SQL; $name parameters left unbound
SELECT
  (
    SELECT
      COUNT(*)
    FROM tids
  ) AS transactions,
  (
    SELECT
      COUNT(*)
    FROM node
    WHERE
      is_leaf
  ) * (
    SELECT
      COUNT(*)
    FROM tx
  ) AS scale,
  COALESCE(
    (
      SELECT
        MAX(children) > 64
      FROM (
        SELECT
          COUNT(*) AS children
        FROM node
        WHERE
          NOT parent IS NULL
        GROUP BY
          parent
      )
    ),
    FALSE
  ) AS wide;
