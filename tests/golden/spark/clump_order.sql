-- clump_order (sql/clump.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS clump_order;

CREATE TABLE clump_order
USING PARQUET AS
WITH lengths AS (
  SELECT
    tid,
    COUNT(*) AS len
  FROM tx
  GROUP BY
    tid
), ancestor AS (
  SELECT
    tc.tid,
    tc.node,
    tc.cnt,
    n.depth,
    CASE WHEN $coarse > 1 THEN FLOOR(LN(tc.cnt) / LN($coarse)) ELSE tc.cnt END AS coarse
  FROM tx_count AS tc
  JOIN node AS n
    ON n.id = tc.node
  WHERE
    NOT n.parent IS NULL
), profile AS (
  SELECT
    tid,
    COLLECT_LIST(STRUCT(node AS node, -coarse AS fewer)) FILTER(WHERE
      depth = 1 AND nth = 0) AS coarse,
    COLLECT_LIST(node) FILTER(WHERE
      depth = 1) AS top,
    COLLECT_LIST(node) AS ancestors
  FROM ancestor, EXPLODE(IF((
    cnt - 1
  ) < 0, ARRAY(), SEQUENCE(0, (
    cnt - 1
  ))), _u(r))
  GROUP BY
    tid
), ordered AS (
  SELECT
    l.tid,
    l.len,
    ROW_NUMBER() OVER (
      ORDER BY p.coarse NULLS LAST, l.len NULLS LAST, p.top NULLS LAST, p.ancestors NULLS LAST, l.tid NULLS LAST
    ) - 1 AS pos
  FROM lengths AS l
  LEFT JOIN profile AS p
    ON p.tid = l.tid
)
SELECT
  tid,
  len,
  CAST(pos AS BIGINT) AS pos,
  CAST(pos DIV $k AS INT) AS block
FROM ordered
ORDER BY
  pos NULLS LAST;
