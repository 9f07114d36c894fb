-- dv_loss (sql/verify_disassociation.sql) as Spark SQL; $name parameters left unbound
WITH instances AS (
  SELECT
    item,
    kind
  FROM dv_record_places
), items AS (
  SELECT
    item,
    BOOL_OR(kind IN ('record', 'shared')) AS linked
  FROM instances
  GROUP BY
    item
)
SELECT
  (
    SELECT
      COUNT(*)
    FROM tx_raw
  ) AS instances,
  COUNT(*) FILTER(WHERE
    kind = 'record') AS record_chunk_instances,
  COUNT(*) FILTER(WHERE
    kind = 'shared') AS shared_chunk_instances,
  COUNT(*) FILTER(WHERE
    kind = 'term') AS term_chunk_instances,
  (
    SELECT
      COUNT(*)
    FROM suppressed_items
  ) AS suppressed,
  (
    SELECT
      COUNT(*)
    FROM items
  ) AS items,
  (
    SELECT
      COUNT(*)
    FROM items
    WHERE
      NOT linked
  ) AS term_only_items,
  (
    SELECT
      COUNT(*)
    FROM clusters
  ) AS clusters,
  (
    SELECT
      COUNT(DISTINCT (unit, chunk))
    FROM dv_rows
    WHERE
      kind = 'record'
  ) AS record_chunks,
  (
    SELECT
      COUNT(DISTINCT (unit, chunk))
    FROM dv_rows
    WHERE
      kind = 'shared'
  ) AS shared_chunks
FROM instances;
