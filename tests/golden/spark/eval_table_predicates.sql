-- eval_table_predicates (sql/evaluate_table.sql) as Spark SQL; $name parameters left unbound
DROP TABLE IF EXISTS eval_table_predicates;

CREATE TABLE eval_table_predicates
USING PARQUET AS
WITH dims AS (
  SELECT
    EXPLODE(CAST($dims AS ARRAY<INT>)) AS dims
), rows AS (
  SELECT
    v.rid,
    c.path
  FROM rel_value AS v
  JOIN rel_combo AS c
    ON c.cid = v.cid
), chosen AS (
  SELECT
    d.dims,
    r.rid,
    a.attr,
    r.path[a.attr] AS path,
    ROW_NUMBER() OVER (
      PARTITION BY d.dims, r.rid
      ORDER BY HASH(r.rid, a.attr, d.dims, $seed) NULLS LAST, a.attr NULLS LAST
    ) AS pos
  FROM dims AS d
  CROSS JOIN rel_attr AS a
  CROSS JOIN rows AS r
  WHERE
    d.dims <= (
      SELECT
        COUNT(*)
      FROM rel_attr
    )
), predicates AS (
  SELECT
    dims,
    rid,
    attr,
    CASE
      WHEN LENGTH(path) = 1
      THEN path[0]
      ELSE path[1 + CAST((
        HASH(rid, attr, dims, $seed, 'node') % (
          LENGTH(path) - 1
        )
      ) AS INT)]
    END AS node
  FROM chosen
  WHERE
    pos <= dims
), queries AS (
  SELECT
    dims,
    rid,
    COLLECT_LIST(attr) AS attrs,
    COLLECT_LIST(node) AS nodes
  FROM predicates
  GROUP BY
    dims,
    rid
), picked AS (
  SELECT
    dims,
    attrs,
    nodes,
    qid
  FROM (
    SELECT
      dims,
      attrs,
      nodes,
      ROW_NUMBER() OVER (
        PARTITION BY dims
        ORDER BY MIN(HASH(rid, dims, $seed)) NULLS LAST, attrs NULLS LAST, nodes NULLS LAST
      ) AS qid
    FROM queries
    GROUP BY
      dims,
      attrs,
      nodes
  ) AS _t
  WHERE
    qid <= $n
)
SELECT
  dims,
  qid,
  EXPLODE(attrs) AS attr,
  EXPLODE(nodes) AS node
FROM picked;
