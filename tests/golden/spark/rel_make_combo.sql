-- rel_make_combo (sql/table_anon.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS rel_combo;

CREATE TABLE rel_combo
USING PARQUET AS
WITH combos AS (
  SELECT
    leaf,
    COUNT(*) AS weight
  FROM rel_row_leaves
  GROUP BY
    leaf
), numbered AS (
  SELECT
    ROW_NUMBER() OVER (ORDER BY leaf NULLS LAST) - 1 AS cid,
    leaf,
    weight
  FROM combos
), paths AS (
  SELECT
    u.cid,
    COLLECT_LIST(p.path) AS path
  FROM (
    SELECT
      cid,
      EXPLODE(leaf) AS leaf,
      GENERATE_SUBSCRIPTS(leaf, 1) AS attr
    FROM numbered
  ) AS u
  JOIN rel_path AS p
    ON p.attr = u.attr AND p.leaf = u.leaf
  GROUP BY
    u.cid
)
SELECT
  n.cid,
  n.weight,
  n.leaf,
  p.path
FROM numbered AS n
JOIN paths AS p
  USING (cid)
ORDER BY
  n.cid NULLS LAST;
