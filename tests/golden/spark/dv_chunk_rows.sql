-- dv_chunk_rows (sql/verify_disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS dv_chunk_rows;

CREATE TABLE dv_chunk_rows
USING PARQUET AS
WITH places AS (
  SELECT
    kind,
    unit,
    chunk,
    item,
    CAST(ROW_NUMBER() OVER (ORDER BY kind NULLS LAST, unit NULLS LAST, chunk NULLS LAST, item NULLS LAST) AS INT) AS node
  FROM (
    SELECT DISTINCT
      kind,
      unit,
      chunk,
      item
    FROM dv_rows
  )
)
SELECT
  DENSE_RANK() OVER (
    ORDER BY r.kind NULLS LAST, r.unit NULLS LAST, r.chunk NULLS LAST, r.`row` NULLS LAST
  ) AS tid,
  p.node
FROM dv_rows AS r
JOIN places AS p
  USING (kind, unit, chunk, item);
