-- clump_choice_remainder (sql/clump.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS clump_round;

CREATE TABLE clump_round
USING PARQUET AS
SELECT
  cluster,
  tid,
  delta
FROM (
  SELECT
    cluster,
    tid,
    delta,
    ROW_NUMBER() OVER (PARTITION BY tid ORDER BY delta NULLS LAST, cluster NULLS LAST) AS _w
  FROM clump_candidates
) AS _t
WHERE
  _w = 1;
