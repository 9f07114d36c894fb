-- dv_places_complete (sql/verify_disassociation.sql) as Spark SQL; $name parameters left unbound
INSERT INTO dv_violations
SELECT
  CASE
    WHEN p.item IS NULL
    THEN 'item of the cluster not released'
    ELSE 'released item not in the cluster'
  END,
  COALESCE(p.cluster, r.cluster),
  CAST(COALESCE(p.item, r.item) AS STRING)
FROM (
  SELECT DISTINCT
    cluster,
    item
  FROM dv_places
  WHERE
    NOT item IS NULL
) AS p
FULL JOIN (
  SELECT DISTINCT
    cluster,
    item
  FROM dv_records
) AS r
  ON r.cluster = p.cluster AND r.item = p.item
WHERE
  p.item IS NULL OR r.item IS NULL;
