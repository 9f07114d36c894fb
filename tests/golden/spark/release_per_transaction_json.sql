-- release_per_transaction_json (sql/verify.sql) as Spark SQL; $name parameters left unbound
SELECT
  tid,
  TO_JSON(items) AS items
FROM (
  SELECT
    t.label AS tid,
    COALESCE(COLLECT_LIST(n.label) FILTER(WHERE
      NOT n.label IS NULL), ARRAY()) AS items
  FROM tids AS t
  LEFT JOIN release AS r
    ON r.tid = t.tid
  LEFT JOIN node AS n
    ON n.id = r.node
  GROUP BY
    t.tid,
    t.label
  ORDER BY
    t.tid NULLS LAST
);
