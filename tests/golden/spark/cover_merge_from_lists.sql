-- cover_merge_from_lists (sql/disassociation.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS cluster_members__next;

CREATE TABLE `cluster_members__next`
USING PARQUET AS
WITH moved AS (
  SELECT
    EXPLODE(CAST($old AS ARRAY<INT>)) AS old,
    EXPLODE(CAST($new AS ARRAY<INT>)) AS new
), renamed AS (
  SELECT
    COALESCE(v.new, m.cluster) AS cluster,
    m.tid
  FROM cluster_members AS m
  LEFT JOIN moved AS v
    ON v.old = m.cluster
)
SELECT
  CAST(DENSE_RANK() OVER (ORDER BY cluster NULLS LAST) AS INT) AS cluster,
  tid
FROM renamed
ORDER BY
  cluster NULLS LAST,
  tid NULLS LAST;

DROP TABLE IF EXISTS cluster_members;

ALTER TABLE cluster_members__next
RENAME TO cluster_members;
