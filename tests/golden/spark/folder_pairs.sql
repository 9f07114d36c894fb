-- folder_pairs (sql/release_folder.sql) as Spark SQL; $name parameters left unbound
WITH pairs AS (
  SELECT
    a.item AS a,
    b.item AS b,
    COUNT(*) AS rows
  FROM dv_rows AS a
  JOIN dv_rows AS b
    ON b.kind = a.kind
    AND b.unit = a.unit
    AND b.chunk = a.chunk
    AND b.`row` = a.`row`
    AND b.item > a.item
  GROUP BY
    a.item,
    b.item
), holders AS (
  SELECT
    l.id AS item,
    t.tid
  FROM tx_raw AS t
  JOIN dv_label AS l
    ON l.label = t.label
  SEMI JOIN (
    SELECT
      a AS item
    FROM pairs
    UNION
    SELECT
      b
    FROM pairs
  ) AS p
    ON p.item = l.id
), data AS (
  SELECT
    x.item AS a,
    y.item AS b,
    COUNT(*) AS support
  FROM holders AS x
  JOIN holders AS y
    ON y.tid = x.tid AND y.item > x.item
  SEMI JOIN pairs AS p
    ON p.a = x.item AND p.b = y.item
  GROUP BY
    x.item,
    y.item
)
INSERT INTO dv_violations
SELECT
  'two items released together more often than the data holds them',
  NULL,
  la.label || ' + ' || lb.label
FROM pairs AS p
LEFT JOIN data AS d
  ON d.a = p.a AND d.b = p.b
JOIN dv_label AS la
  ON la.id = p.a
JOIN dv_label AS lb
  ON lb.id = p.b
WHERE
  p.rows > COALESCE(d.support, 0);
