-- fanout_leaves (sql/hierarchy_build.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS fanout_tree;

CREATE TABLE fanout_tree
USING PARQUET AS
WITH supports AS (
  /* tx_raw holds each (tid, label) pair once (make_tx_raw), so rows are transactions: a */
  /* count(DISTINCT tid) here took 7 s of a 10^7-transaction load */
  SELECT
    label,
    COUNT(*) AS support
  FROM tx_raw
  GROUP BY
    label
), keyed AS (
  SELECT
    label,
    support,
    label RLIKE '^-?[0-9]+$' AS num,
    TRIM(LEADING '0' FROM TRIM(LEADING '-' FROM label)) AS mag
  FROM supports
), signed AS (
  SELECT
    *,
    num AND STARTSWITH(label, '-') AND mag <> '' AS neg
  FROM keyed
)
SELECT
  0 AS level,
  pos,
  pos AS node,
  label
FROM (
  SELECT
    label,
    CAST(ROW_NUMBER() OVER (
      ORDER BY CASE WHEN $by_support THEN support END DESC, CASE WHEN num THEN 0 ELSE 1 END NULLS LAST, CASE WHEN num AND neg THEN -LENGTH(mag) WHEN num THEN LENGTH(mag) END NULLS LAST, CASE WHEN num AND neg THEN mag END DESC, CASE WHEN num AND NOT neg THEN mag END NULLS LAST, label NULLS LAST
    ) - 1 AS BIGINT) AS pos
  FROM signed
);
