-- dv_projections (sql/verify_disassociation.sql) as Spark SQL; $name parameters left unbound
WITH released AS (
  SELECT
    kind,
    unit,
    chunk,
    COLLECT_LIST(item) AS items
  FROM dv_rows
  GROUP BY
    kind,
    unit,
    chunk,
    `row`
), domains AS (
  SELECT DISTINCT
    kind,
    unit,
    unit AS cluster,
    chunk,
    item
  FROM dv_rows
  WHERE
    kind = 'record'
  UNION ALL
  SELECT DISTINCT
    s.kind,
    s.unit,
    j.cluster,
    s.chunk,
    s.item
  FROM dv_rows AS s
  JOIN joint_clusters AS j
    ON j.joint = s.unit
  WHERE
    s.kind = 'shared'
), original AS (
  SELECT
    d.kind,
    d.unit,
    d.chunk,
    COLLECT_LIST(r.item) AS items
  FROM dv_records AS r
  JOIN domains AS d
    ON d.cluster = r.cluster AND d.item = r.item
  GROUP BY
    d.kind,
    d.unit,
    d.chunk,
    r.tid
), a AS (
  SELECT
    kind,
    unit,
    chunk,
    items,
    COUNT(*) AS n
  FROM released
  GROUP BY ALL
), b AS (
  SELECT
    kind,
    unit,
    chunk,
    items,
    COUNT(*) AS n
  FROM original
  GROUP BY ALL
)
INSERT INTO dv_violations
SELECT
  'chunk is not the projection of its records',
  COALESCE(a.unit, b.unit),
  COALESCE(a.kind, b.kind) || ' chunk ' || COALESCE(a.chunk, b.chunk) || ': ' || CAST(COALESCE(a.items, b.items) AS STRING)
FROM a
FULL JOIN b
  ON b.kind = a.kind AND b.unit = a.unit AND b.chunk = a.chunk AND b.items = a.items
WHERE
  a.n IS DISTINCT FROM b.n;
